// SPDX-License-Identifier: Apache-2.0
// `graft policy check` runs every rule against sample requests on a sample
// host: each sample's outcome is kept (a refusal with its rule and file:line,
// a run-time error with the sample and the rule's file:line); a rule that ran
// and changed nothing is idle, one that no sample reached is not; rules that
// do not load are one error; a sample may set its host's size and MIG layout.
#include <catch2/catch.hpp>

#include <algorithm>

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
                                        .env = {"GPUS=all"}, .annotations = {}, .privileged = false, .host = {}};
  return policy;
}

const SampleOutcome& outcome_named(const SampleCheck& check, const std::string& name) {
  auto found = std::find_if(check.samples.begin(), check.samples.end(),
                            [&](const SampleOutcome& s) { return s.name == name; });
  REQUIRE(found != check.samples.end());
  return *found;
}

}  // namespace

TEST_CASE("a rule that fails at run time is that sample's error, naming the sample and the rule's line",
          "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('limit', function(req, host, grant)\n  if grant:injecting() and #grant:devices() > policy.data.gpu_limit.max "
           "then end\nend)\n"));
  REQUIRE(check);
  const SampleOutcome& all = outcome_named(*check, "all");
  CHECK(all.kind == SampleOutcome::Kind::error);
  CHECK(sample_label(all) + ": " + all.error ==
        "sample 'all' (/etc/graft/graft.toml:12:1): rule 'limit' (" + dir.path() +
            "/site.lua:2): attempt to index a nil value (field 'gpu_limit')");
  CHECK(check->count(SampleOutcome::Kind::error) == 1);
  CHECK(check->count(SampleOutcome::Kind::not_gpu) == 2);  // the other samples still ran
}

TEST_CASE("the built-in samples run even when the policy has none", "[rules][check]") {
  RuleDir dir;
  Policy policy = test_policy({dir.write("site.lua", "rule('r', function(req, host, grant)\n"
                                                     "  if req.privileged then error('boom') end\nend)\n")});
  auto check = check_rules_on_samples(policy);
  REQUIRE(check);
  const SampleOutcome& privileged = outcome_named(*check, "built-in: privileged, no request");
  CHECK(privileged.kind == SampleOutcome::Kind::error);
  CHECK_THAT(privileged.error, Catch::StartsWith("rule 'r'"));
}

TEST_CASE("a rule that changes nothing for any sample is reported idle, one that acts is not", "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('tenant', function(req, host, grant)\n"
           "  if req.annotations['example.com/tenant'] then grant:remove_device(0, 'lease') end\nend)\n"
           "rule('one-gpu', function(req, host, grant)\n"
           "  if grant:injecting() then grant:restrict_devices({1}, 'one') end\nend)\n"));
  REQUIRE(check);
  CHECK(check->samples.size() == 3);
  CHECK(check->count(SampleOutcome::Kind::injected) == 1);
  CHECK(check->count(SampleOutcome::Kind::not_gpu) == 2);
  REQUIRE(check->idle_rules.size() == 1);
  CHECK(check->idle_rules[0].name == "tenant");
  CHECK(check->idle_rules[0].origin.line == 1);
  CHECK(check->unreached_rules.empty());
}

TEST_CASE("a rule no GPU sample reached because an earlier rule refused each is not reached, not idle",
          "[rules][check]") {
  RuleDir dir;
  Policy policy = test_policy({dir.write("vendor.lua", "rule('vendor-check', 'check', function(req, host, grant)\n"
                                                       "  grant:note('checked')\nend)\n"),
                               dir.write("site.lua", "rule('site-deny', function(req, host, grant)\n"
                                                     "  grant:deny('no tenant')\nend)\n")});
  auto check = check_rules_on_samples(policy);
  REQUIRE(check);
  CHECK(check->idle_rules.empty());
  REQUIRE(check->unreached_rules.size() == 1);
  CHECK(check->unreached_rules[0].name == "vendor-check");
  CHECK(check->refusing_rules == std::vector<std::string>{"site-deny"});
}

TEST_CASE("a refused sample's outcome names the refusing rule, its file:line and the reason", "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('cap', function(req, host, grant)\n  if grant:injecting() then\n"
           "    grant:deny('too many GPUs')\n  end\nend)\n"));
  REQUIRE(check);
  const SampleOutcome& all = outcome_named(*check, "all");
  REQUIRE(all.kind == SampleOutcome::Kind::refused);
  CHECK(describe_outcome(all) == "refused by rule 'cap' (" + dir.path() + "/site.lua:3): too many GPUs");
  CHECK(describe_outcome(outcome_named(*check, "built-in: no request")) == "not a GPU container");
}

TEST_CASE("rules that do not load are one error of the check, not one per sample", "[rules][check]") {
  RuleDir dir;
  auto check = check_rules_on_samples(policy_with(
      dir, "rule('twice', function() end)\nrule('twice', function() end)\n"));
  REQUIRE_FALSE(check);
  CHECK_THAT(check.error().message, Catch::Contains("site.lua:2") && Catch::Contains("twice"));
  CHECK_THAT(check.error().message, !Catch::Contains("sample"));
}

TEST_CASE("a sample that sets its host runs on that many GPUs with MIG where it says", "[rules][check]") {
  RuleDir dir;
  Policy policy = policy_with(dir, "");
  policy.samples["all"].host = SampleHost{.gpus = 8, .mig = {0}, .partitions = 3};
  auto check = check_rules_on_samples(policy);
  REQUIRE(check);
  const SampleOutcome& all = outcome_named(*check, "all");
  REQUIRE(all.kind == SampleOutcome::Kind::injected);
  CHECK(all.intent.devices.size() == 8);
  CHECK(all.host == "8 GPUs, MIG on 0 (3 partitions each)");
  CHECK(describe_outcome(all) == "injected GPUs 0, 1, 2, 3, 4, 5, 6, 7");
}

TEST_CASE("the sample host has two GPUs, the second with two partitions", "[rules][check]") {
  Inventory host = sample_inventory();
  REQUIRE(host.gpus.size() == 2);
  CHECK(host.gpus[0].partitions.empty());
  CHECK(host.gpus[1].partitions.size() == 2);
  CHECK_FALSE(host.driver_version.empty());
}
