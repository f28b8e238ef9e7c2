// SPDX-License-Identifier: Apache-2.0
// What `graft policy check` says it saw (docs/policy.md, "Checking a
// policy"): one line per sample with its outcome, a refusal with its rule and
// file:line; a rule that raises on a sample fails the check naming both; a
// rule file that does not load is one error; --strict fails on warnings.
// All --offline: the policy alone, the same on every machine.
#include <catch2/catch.hpp>

#include <fstream>

#include <fmt/format.h>

#include "run_command.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"

namespace policy_check_report_test {

using namespace graft;
using namespace graft::testing;

// A site policy in `dir` including the shipped vendor policy, with `rule_lua`
// as its one site rule file (site.lua) when given, and `extra` TOML after.
std::string write_site(const fixture::TempDir& dir, const std::string& rule_lua, const std::string& extra = "") {
  std::string rules;
  if (!rule_lua.empty()) {
    std::ofstream(dir.path() + "/site.lua") << rule_lua;
    rules = "rules = [\"site.lua\"]\n";
  }
  std::string path = dir.path() + "/graft.toml";
  std::ofstream(path) << fmt::format("include = [\"{}/nvidia/nvidia.toml\"]\n{}{}", fixture::source_policy_dir(),
                                     rules, extra);
  return path;
}

CommandResult check(const std::string& policy, std::vector<std::string> flags = {}) {
  std::vector<std::string> args{"--policy", policy, "policy", "check", "--offline"};
  args.insert(args.end(), flags.begin(), flags.end());
  return run_graft(args);
}

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t count = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (text.compare(at, prefix.size(), prefix) == 0) ++count;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return count;
}

TEST_CASE("graft policy check prints each sample's outcome, a refusal with its rule and file:line",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  auto result = check(write_site(dir, ""));
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("sample   built-in: no request: not a GPU container\n"));
  CHECK_THAT(result.out, Catch::Contains("sample   all-gpus (" + fixture::source_policy_dir() +
                                         "/nvidia/nvidia.toml:"));
  CHECK_THAT(result.out, Catch::Contains("): injected GPUs 0, 1 ("));
  CHECK_THAT(result.out, Catch::Contains("sample   unknown-gpu (") && Catch::Contains("refused by rule '"));
  CHECK_THAT(result.out, Catch::Contains("visible_devices.lua:"));
  CHECK_THAT(result.out, Catch::Contains("\nok: "));
}

TEST_CASE("graft policy check fails on a rule that raises on an annotated sample, naming sample, rule and line",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  std::string policy = write_site(dir,
                                  "rule('tenant', function(req, host, grant)\n"
                                  "  local tenant = req.annotations['example.com/tenant']\n"
                                  "  if tenant then return policy.data.leases[tenant] end\nend)\n",
                                  "[sample.team-a]\nenv = [\"NVIDIA_VISIBLE_DEVICES=all\"]\n"
                                  "annotations = [\"example.com/tenant=team-a\"]\n");
  auto result = check(policy);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK(lines_starting(result.err, "graft: ") == 1);
  CHECK_THAT(result.err, Catch::Contains("sample 'team-a' (" + policy + ":3:"));
  CHECK_THAT(result.err, Catch::Contains("rule 'tenant' (" + dir.path() + "/site.lua:3)"));
}

TEST_CASE("graft policy check reports a duplicate rule name once, as a load error, not under a sample",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  auto result = check(write_site(dir, "rule('twice', function() end)\nrule('twice', function() end)\n"));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: rules did not load: ") && Catch::Contains("site.lua:2"));
  CHECK_THAT(result.out + result.err, !Catch::Contains("sample"));
  CHECK(lines_starting(result.out, "error    ") == 1);
}

TEST_CASE("graft policy check --strict fails on an idle rule that the plain check only reports",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  std::string policy = write_site(dir, "rule('never', function(req, host, grant)\n"
                                       "  if req.annotations['example.com/none'] then grant:deny('x') end\nend)\n");
  auto plain = check(policy);
  INFO(plain.out << plain.err);
  CHECK(plain.exit_code == 0);
  CHECK_THAT(plain.out, Catch::Contains("idle     rule 'never' (" + dir.path() + "/site.lua:1) ran and changed"));
  auto strict = check(policy, {"--strict"});
  INFO(strict.out << strict.err);
  CHECK(strict.exit_code == 1);
  CHECK(lines_starting(strict.err, "graft: ") == 1);
  CHECK_THAT(strict.err, Catch::StartsWith("graft: --strict: idle rule 'never'"));
}

TEST_CASE("graft policy check says 'not reached' of vendor rules a site rule refused every sample before",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  auto result = check(write_site(dir, "rule('site-deny', function(req, host, grant)\n"
                                      "  if grant:injecting() then grant:deny('no tenant') end\nend)\n"));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("untested vendor rule 'nvidia-requirements' (") &&
                             Catch::Contains("was not reached: no sample came through to it as a GPU container (refused by "
                                            "'site-deny', 'nvidia-visible-devices')"));
  CHECK_THAT(result.out, !Catch::Contains("idle     rule 'nvidia-requirements'"));
}

TEST_CASE("graft policy check runs a sample on the host its [sample.NAME] host sets", "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  auto result = check(write_site(dir, "", "[sample.eight]\nenv = [\"NVIDIA_VISIBLE_DEVICES=all\"]\n"
                                          "host = { gpus = 8, mig = [7] }\n"));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("sample   eight (") &&
                             Catch::Contains("; 8 GPUs, MIG on 7 (2 partitions each)): injected GPUs 0, 1, 2, 3, 4, 5, 6, 7"));
}

TEST_CASE("a [sample.NAME] host whose mig names a GPU it lacks is a policy error at its file:line",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  std::string policy = write_site(dir, "", "[sample.bad]\nhost = { gpus = 2, mig = [2] }\n");
  auto result = check(policy);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(policy + ":3:") && Catch::Contains("sample.bad.host") &&
                             Catch::Contains("mig names GPU 2, but the host has 2 GPUs"));
}

// A site rule that fails closed: every GPU container without the tenant
// annotation is refused, so the vendor's own samples never reach the rules
// after it.
constexpr const char* kFailClosed =
    "rule('tenant', function(req, host, grant)\n"
    "  if not grant:injecting() then return end\n"
    "  if not req.annotations['example.com/tenant'] then return grant:deny('no tenant') end\n"
    "end)\n";

// The vendor policy by name, as sites include it (its layer is the vendor's).
std::string write_site_by_name(const fixture::TempDir& dir, const std::string& rule_lua, const std::string& extra) {
  std::ofstream(dir.path() + "/site.lua") << rule_lua;
  std::string path = dir.path() + "/graft.toml";
  std::ofstream(path) << "include = [\"nvidia\"]\nrules = [\"site.lua\"]\n" << extra;
  return path;
}

TEST_CASE("a vendor rule that a site rule refused every vendor sample before is an untested note, and --strict "
          "passes",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  std::string policy = write_site_by_name(dir, kFailClosed,
                                          "[sample.team-a]\nenv = [\"NVIDIA_VISIBLE_DEVICES=0\"]\n"
                                          "annotations = [\"example.com/tenant=team-a\"]\n");
  auto result = run_graft({"--policy", policy, "--policy-dir", fixture::source_policy_dir(), "policy", "check",
                           "--offline", "--strict"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("untested vendor rule 'nvidia-requirements' (") &&
                             Catch::Contains("samples were refused before it ran (refused by 'tenant'") &&
                             Catch::Contains("the vendor policy's own tests cover it"));
  CHECK(lines_starting(result.out, "idle") == 0);
}

TEST_CASE("a site rule idle where samples were refused before it says how many, and --strict fails on it",
          "[policy-check]") {
  fixture::TempDir dir("graft-check-report-");
  std::string policy = write_site_by_name(dir, std::string(kFailClosed) +
                                                   "rule('later', 'check', function(req, host, grant) end)\n",
                                          "[sample.team-a]\nenv = [\"NVIDIA_VISIBLE_DEVICES=0\"]\n"
                                          "annotations = [\"example.com/tenant=team-a\"]\n");
  auto result = run_graft({"--policy", policy, "--policy-dir", fixture::source_policy_dir(), "policy", "check",
                           "--offline", "--strict"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("idle     rule 'later' (" + dir.path() + "/site.lua:") &&
                             Catch::Contains("samples were refused before it ran (refused by 'tenant'"));
  CHECK_THAT(result.err, Catch::StartsWith("graft: --strict: idle"));
}

}  // namespace policy_check_report_test
