// SPDX-License-Identifier: Apache-2.0
// `graft plan --explain` and `graft policy show` as an admin runs them: the
// shipped vendor policy on an 8-GPU fake host, through the graft binary.
#include <algorithm>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "fake_host.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

struct ExplainHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(8));
  std::string policy = fixture::write_site_policy(host);
};

ExplainHost& explain_host() {
  static ExplainHost host;
  return host;
}

std::size_t position(const std::string& text, const std::string& part) {
  auto at = text.find(part);
  INFO("looking for: " << part);
  REQUIRE(at != std::string::npos);
  return at;
}

}  // namespace

TEST_CASE("graft plan --explain follows the plan with every rule in run order, its reads and changes",
          "[cli][explain]") {
  auto result = run_graft({"--policy", explain_host().policy, "plan", "--explain", "--env",
                           "NVIDIA_VISIBLE_DEVICES=1", "--env", "NVIDIA_DRIVER_CAPABILITIES=compute"});
  INFO(result.err << result.out);
  REQUIRE(result.exit_code == 0);
  const std::string& out = result.out;
  std::size_t explain = position(out, "\nexplain: 7 rules, in the order they ran\n");
  CHECK(position(out, " actions\n") < explain);
  std::size_t visible = position(out, "request  nvidia-visible-devices  " + fixture::source_policy_dir() +
                                          "/nvidia/visible_devices.lua:");
  std::size_t graphics = position(out, "derive   nvidia-graphics-profile");
  std::size_t requirements = position(out, "check    nvidia-requirements");
  CHECK(explain < visible);
  CHECK(visible < graphics);
  CHECK(graphics < requirements);
  CHECK_THAT(out, Catch::Contains("read    req.env.NVIDIA_VISIBLE_DEVICES = \"1\""));
  CHECK_THAT(out, Catch::Contains("change  + device GPU 1 (NVIDIA_VISIBLE_DEVICES=1)"));
  CHECK_THAT(out, Catch::Contains("change  + capability compute"));
  CHECK_THAT(out, Catch::Contains("no change"));
}

TEST_CASE("graft plan --explain on a refused container says which rules were not reached", "[cli][explain]") {
  auto result = run_graft({"--policy", explain_host().policy, "plan", "--explain", "--env",
                           "NVIDIA_VISIBLE_DEVICES=99"});
  CHECK(result.exit_code == 3);
  std::size_t refused = position(result.out, "change  refused (unknown device '99'");
  std::size_t not_reached = position(result.out, "not reached: an earlier rule refused the container or failed");
  CHECK(refused < not_reached);
}

TEST_CASE("graft plan --explain lists the rules up to one that fails, with what it read", "[cli][explain]") {
  // A host of its own: the policy written here is not the shared host's.
  auto host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2));
  std::string rule = host.path("/explain-failing.lua");
  std::ofstream(rule) << "rule('limit', function(req, host, grant)\n"
                         "  if req.privileged then return end\n"
                         "  local x = policy.data.gpu_limit.max\nend)\n";
  std::string policy = fixture::write_site_policy(host, "rules = [\"" + rule + "\"]\n");
  auto result = run_graft({"--policy", policy, "plan", "--explain", "--env", "NVIDIA_VISIBLE_DEVICES=0"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("explain-failing.lua:3"));
  std::size_t failing = position(result.out, "restrict limit  " + rule + ":1\n"
                                             "       read    req.privileged = false\n"
                                             "       read    policy.data.gpu_limit = nil\n"
                                             "       failed: the evaluation stopped with its error\n");
  CHECK(failing < position(result.out, "derive   nvidia-graphics-profile"));
  CHECK_THAT(result.out, Catch::Contains("not reached"));
}

TEST_CASE("graft plan --explain --format json adds an explain array in run order", "[cli][explain]") {
  auto result = run_graft({"--policy", explain_host().policy, "plan", "--explain", "--format", "json", "--env",
                           "NVIDIA_VISIBLE_DEVICES=2"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto plan = nlohmann::json::parse(result.out);
  REQUIRE(plan["explain"].size() == 7);
  CHECK(plan["explain"][0]["rule"] == "nvidia-visible-devices");
  const auto& changes = plan["explain"][0]["changes"];
  CHECK(changes[0] == "inject: false -> true (env NVIDIA_VISIBLE_DEVICES=2)");
  CHECK(changes[1] == "vendors: [] -> [nvidia]");
  CHECK(std::find(changes.begin(), changes.end(), "+ device GPU 2 (NVIDIA_VISIBLE_DEVICES=2)") != changes.end());
  CHECK(plan["explain"][6]["phase"] == "check");
  CHECK(plan["decisions"]["granted"]["devices"][0]["gpu"] == 2);
}

TEST_CASE("graft plan without --explain prints no explanation", "[cli][explain]") {
  auto text = run_graft({"--policy", explain_host().policy, "plan", "--env", "NVIDIA_VISIBLE_DEVICES=2"});
  CHECK_THAT(text.out, !Catch::Contains("explain:"));
  auto json = run_graft({"--policy", explain_host().policy, "plan", "--format", "json", "--env",
                         "NVIDIA_VISIBLE_DEVICES=2"});
  CHECK_FALSE(nlohmann::json::parse(json.out).contains("explain"));
}

TEST_CASE("graft plan --explain with a bundle reads the bundle's env", "[cli][explain]") {
  std::string dir = explain_host().host.path("/explain-bundle");
  std::filesystem::create_directories(dir + "/rootfs");
  std::ofstream(dir + "/config.json") << R"({"ociVersion":"1.0.2","root":{"path":"rootfs"},)"
                                      << R"("process":{"env":["NVIDIA_VISIBLE_DEVICES=3"]}})";
  auto result = run_graft({"--policy", explain_host().policy, "plan", "--explain", "--bundle", dir});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("read    req.env.NVIDIA_VISIBLE_DEVICES = \"3\""));
}

TEST_CASE("graft policy show prints the merged shipped policy as TOML that parses back", "[cli][policy-show]") {
  auto result = run_graft({"--policy", explain_host().policy, "policy", "show"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  toml::table table;
  try {
    table = toml::parse(result.out);
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e;
    FAIL("graft policy show wrote TOML that does not parse: " << where.str());
  }
  CHECK(table["files"][0].value_or(std::string()) == fixture::source_policy_dir() + "/nvidia/nvidia.toml");
  CHECK(table["files"][1].value_or(std::string()) == explain_host().policy);
  CHECK(table["registered_rules"][0]["name"].value_or(std::string()) == "nvidia-visible-devices");
  CHECK(table["registered_rules"][6]["phase"].value_or(std::string()) == "check");
  CHECK(table["capability"]["compute"]["libraries"].as_array() != nullptr);
  CHECK(table["host"]["dev_root"].value_or(std::string()) == explain_host().host.root());
  CHECK_THAT(result.out, Catch::Contains("\"libcuda.so\",  # " + fixture::source_policy_dir() + "/nvidia/nvidia.toml:"));
}

TEST_CASE("graft policy show --format json names each capability item's origin", "[cli][policy-show]") {
  auto result = run_graft({"--policy", explain_host().policy, "policy", "show", "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto policy = nlohmann::json::parse(result.out);
  CHECK(policy["schema"] == "graft.policy-show/v1");
  auto first = policy["capability"]["compute"]["libraries"][0];
  CHECK(first["value"] == "libcuda.so");
  CHECK_THAT(first["origin"].get<std::string>(), Catch::StartsWith(fixture::source_policy_dir() + "/nvidia/nvidia.toml:"));
  CHECK(policy["data"].is_object());
}

TEST_CASE("the --help of plan and of policy show carry an example of the new options", "[cli][explain]") {
  auto plan = run_graft({"plan", "--help"});
  CHECK(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains("graft plan --explain"));
  auto show = run_graft({"policy", "show", "--help"});
  CHECK(show.exit_code == 0);
  CHECK_THAT(show.out, Catch::Contains("Examples:") && Catch::Contains("graft policy show --format json"));
}

TEST_CASE("the JSON plan with --explain validates against docs/plan-schema.json", "[cli][explain]") {
  auto& host = explain_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  for (std::string devices : {"1", "99"}) {
    auto result = run_graft({"--policy", host.policy, "plan", "--explain", "--format", "json", "--env",
                             "NVIDIA_VISIBLE_DEVICES=" + devices});
    INFO(devices << ": " << result.err);
    CHECK((result.exit_code == 0 || result.exit_code == 3));
    std::string file = host.host.path("/explain-plan-" + devices + ".json");
    std::ofstream(file) << result.out;
    auto check = check_plan_schema(file);
    INFO(check.err);
    CHECK(check.exit_code == 0);
  }
}
