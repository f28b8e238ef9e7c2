// SPDX-License-Identifier: Apache-2.0
// [data_schema]: a declared shape for [data], checked when the policy loads
// (undeclared keys, types, required keys), and the rule reads of data keys
// it does not declare, which `graft policy check` reports.
#include <string>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"
#include "rules/sample_check.hpp"
#include "rules_support.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace policy_data_schema_test {

const std::string kSourcePolicies = GRAFT_SOURCE_DIR "/policies";

constexpr const char* kSchema =
    "[data_schema.max_gpus]\ntype = \"integer\"\nrequired = true\n"
    "[data_schema.tenants]\ntype = \"table\"\nvalues = \"array of strings\"\n";


TEST_CASE("a [data] key the schema does not declare is an error at its line with a did-you-mean",
          "[policy][data-schema]") {
  CHECK(error_in_file(std::string(kSchema) + "[data]\nmax_gpus = 2\nmax_gpu = 4\n") ==
        "F:9:11: data.max_gpu: not declared in [data_schema]; did you mean 'max_gpus'?");
}

TEST_CASE("a [data] value of another type than its schema declares is an error", "[policy][data-schema]") {
  CHECK(error_in_file(std::string(kSchema) + "[data]\nmax_gpus = \"4\"\n") ==
        "F:8:12: data.max_gpus: [data_schema] declares integer, got string");
  CHECK(error_in_file(std::string(kSchema) + "[data]\nmax_gpus = 4\n[data.tenants]\nteam-a = [\"GPU-1\", 2]\n") ==
        "F:10:10: data.tenants.team-a: [data_schema] declares array of strings, got array with an element of "
        "another type");
}

TEST_CASE("a required [data] key no file sets is an error at its schema entry", "[policy][data-schema]") {
  CHECK(error_in_file(kSchema) == "F:1:1: data_schema.max_gpus: required, but no file sets data.max_gpus");
}

TEST_CASE("a schema type graft does not know is an error with a did-you-mean", "[policy][data-schema]") {
  CHECK(error_in_file("[data_schema.max_gpus]\ntype = \"integr\"\n") ==
        "F:2:8: data_schema.max_gpus.type: unknown type 'integr' (string, integer, float, boolean, table, array or "
        "\"array of <type>s\"); did you mean 'integer'?");
}

TEST_CASE("a policy without [data_schema] keeps [data] free-form", "[policy][data-schema]") {
  PolicyFiles files;
  auto loaded = load_policy(files.write("graft.toml", "[data]\nmax_gpu = \"anything\"\n"), {});
  CHECK(loaded);
}

TEST_CASE("a site without a schema of its own may add [data] keys on top of a shipped policy's schema",
          "[policy][data-schema]") {
  PolicyFiles files;
  auto site = files.write("graft.toml", "include = [\"nvidia\"]\n[data]\nmax_gpus = 4\ndisable_require = true\n");
  auto loaded = load_policy(site, {{kSourcePolicies}});
  REQUIRE(loaded);
  CHECK(loaded->data["max_gpus"] == 4);
}

TEST_CASE("a site value for a key the shipped policy declares is checked against its type", "[policy][data-schema]") {
  PolicyFiles files;
  auto site = files.write("graft.toml", "include = [\"nvidia\"]\n[data]\ndisable_require = \"yes\"\n");
  CHECK(load_error(site, {{kSourcePolicies}}) ==
        site + ":3:19: data.disable_require: [data_schema] declares boolean, got string");
}

TEST_CASE("sample checks note each rule's reads of data keys the schema does not declare, with their line",
          "[policy][data-schema][rules]") {
  rules_test::RuleDir dir;
  std::string rule = dir.write("cap.lua",
                               "rule('cap', function(req, host, grant)\n"
                               "  local declared = policy.data.max_gpus\n"
                               "  if policy.data.max_gpu then grant:note('typo') end\n"
                               "end)\n");
  Policy policy = rules_test::test_policy({rule});
  policy.data_schema.fields["max_gpus"] = DataField{.type = "integer"};
  policy.data_schema.declared_by_site = true;
  auto check = check_rules_on_samples(policy);
  REQUIRE(check);
  REQUIRE(check->undeclared_data_reads.size() == 1);
  const RuleActivity& reader = check->undeclared_data_reads[0];
  CHECK(reader.name == "cap");
  REQUIRE(reader.undeclared_reads.size() == 1);
  CHECK(reader.undeclared_reads[0] == DataRead{"max_gpu", Origin{rule, 3, 0}});
}

TEST_CASE("the shipped policy declares every data key its rules read", "[policy][data-schema][rules]") {
  auto policy = load_policy(kSourcePolicies + "/nvidia/nvidia.toml", {});
  REQUIRE(policy);
  auto check = check_rules_on_samples(*policy);
  REQUIRE(check);
  CHECK(check->undeclared_data_reads.empty());
}

}  // namespace policy_data_schema_test
