// `graft policy check` runs every rule against sample requests on a sample
// host: a run-time error fails the check with the sample and the rule's
// file:line; a rule no sample makes act is reported idle.
#include <catch2/catch.hpp>

#include "rules/sample_check.hpp"
#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

const char* kVendor = R"(
rule("vendor", "request", function(req, host, grant)
  if req.env.GPUS == nil then return end
  grant:inject("asked")
  for _, gpu in ipairs(host.gpus) do grant:add_device(gpu.index, "all") end
end)
)";

Policy policy_with(const RuleDir& dir, const std::string& site_rules) {
  Policy policy = test_policy({dir.write("vendor.lua", kVendor), dir.write("site.lua", site_rules)});
  policy.samples["all"] = SampleRequest{.name = "all", .origin = {"/etc/graft/graft.toml", 12, 1},
                                        .env = {"GPUS=all"}, .annotations = {}, .privileged = false};
  return policy;
}

}  // namespace

TEST_CASE("a rule that fails at run time fails the check, naming the sample and the rule's line", "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('limit', function(req, host, grant)\n  if grant:injecting() and #grant:devices() > policy.data.gpu_limit.max "
           "then end\nend)\n"));
  REQUIRE_FALSE(check);
  CHECK(check.error().message == "sample 'all' (/etc/graft/graft.toml:12:1): rule 'limit' (" + dir.path() +
                                     "/site.lua:2): attempt to index a nil value (field 'gpu_limit')");
}

TEST_CASE("the built-in samples run even when the policy has none", "[rules][check]") {
  RuleDir dir;
  Policy policy = test_policy({dir.write("site.lua", "rule('r', function(req, host, grant)\n"
                                                     "  if req.privileged then error('boom') end\nend)\n")});
  auto check = check_rules_on_samples(policy);
  REQUIRE_FALSE(check);
  CHECK_THAT(check.error().message, Catch::StartsWith("sample 'built-in: privileged, no request': rule 'r'"));
}

TEST_CASE("a rule that changes nothing for any sample is reported idle, one that acts is not", "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('tenant', function(req, host, grant)\n"
           "  if req.annotations['example.com/tenant'] then grant:remove_device(0, 'lease') end\nend)\n"
           "rule('one-gpu', function(req, host, grant)\n"
           "  if grant:injecting() then grant:restrict_devices({1}, 'one') end\nend)\n"));
  REQUIRE(check);
  CHECK(check->samples == 3);
  CHECK(check->injected == 1);
  CHECK(check->skipped == 2);
  REQUIRE(check->idle_rules.size() == 1);
  CHECK(check->idle_rules[0].name == "tenant");
  CHECK(check->idle_rules[0].origin.line == 1);
}

TEST_CASE("the sample host has two GPUs, the second with two partitions", "[rules][check]") {
  Inventory host = sample_inventory();
  REQUIRE(host.gpus.size() == 2);
  CHECK(host.gpus[0].partitions.empty());
  CHECK(host.gpus[1].partitions.size() == 2);
  CHECK_FALSE(host.driver_version.empty());
}
