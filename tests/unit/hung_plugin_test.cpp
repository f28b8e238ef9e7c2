// SPDX-License-Identifier: Apache-2.0
// A plugin that never returns, under the real `graft hook` and `graft
// apply`: whichever phase it hangs in (load's init, prepare, apply, finish,
// destroy), the policy's [limits] deadline_ms ends graft with exit 1 and one
// line naming the container, the plugin file, the action and the phase, so
// the runtime refuses the start instead of waiting forever; the audit log
// gets the error record. The test plugin `crash` in mode "hang" stands in for
// the cgroup plugin (hook_harness.hpp), so the host's cgroups are never
// touched.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bounded_graft.hpp"
#include "hook_harness.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

// Several times what a whole hook takes here (0.1 s; 0.6 s in the sanitizer
// build), so even on a busy machine the deadline passes inside the hang and
// nowhere earlier.
constexpr int kPluginDeadlineMs = 2500;
const std::string kDidNotFinish = " did not finish within " + std::to_string(kPluginDeadlineMs) + " ms\n";

std::string hung_bundle(const std::string& name) {
  return gpu1_bundle(host().path("/hung-plugin/" + name));
}

// A policy whose cgroup plugin (the stand-in in `dir`) hangs in `phase`.
std::string hang_policy(const std::string& dir, const std::string& phase, const std::string& audit = "") {
  return write_policy("hang-" + phase, dir,
                      "[limits]\ndeadline_ms = " + std::to_string(kPluginDeadlineMs) +
                          "\n[plugins.config.cgroup]\nmode = \"hang\"\nphase = \"" + phase + "\"\n",
                      audit);
}

struct HungHook {
  testing::CommandResult result;
  std::string plugin;  // the stand-in's path as graft names it
};

HungHook hook_hanging_in(const std::string& phase, const std::string& audit = "") {
  PluginDir plugins("cgroup");
  Container container;
  auto result = testing::run_command(
      testing::bounded_graft({"--policy", hang_policy(plugins.path(), phase, audit), "hook", "prestart"}),
      state_json("c9", container.pid(), hung_bundle(phase)));
  return {result, plugins.path() + "/libcgroup.so"};
}

std::vector<nlohmann::json> records_in(const std::string& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  return records;
}

}  // namespace

TEST_CASE("a plugin hanging in apply ends at the deadline with one line naming plugin, action and phase",
          "[hook][hostile][deadline]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  std::string bundle = hung_bundle("apply");
  auto hung = hook_hanging_in("apply");
  INFO(hung.result.err);
  CHECK(hung.result.exit_code == 1);
  CHECK(line_count(hung.result.err) == 1);
  CHECK_THAT(hung.result.err, Catch::StartsWith("graft: container c9: plugin " + hung.plugin + ": cgroup_allow c ") &&
                                  Catch::EndsWith(": apply" + kDidNotFinish));
  CHECK(host_has_no_mount_under(bundle));
}

TEST_CASE("a plugin hanging in prepare is named with its action and phase", "[hook][hostile][deadline]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  auto hung = hook_hanging_in("prepare");
  INFO(hung.result.err);
  CHECK(hung.result.exit_code == 1);
  CHECK(line_count(hung.result.err) == 1);
  CHECK_THAT(hung.result.err, Catch::StartsWith("graft: container c9: plugin " + hung.plugin + ": cgroup_allow c ") &&
                                  Catch::EndsWith(": prepare" + kDidNotFinish));
}

TEST_CASE("a plugin hanging in finish, init or destroy is named with that phase", "[hook][hostile][deadline]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  auto phase = GENERATE(as<std::string>{}, "finish", "init", "destroy");
  auto hung = hook_hanging_in(phase);
  INFO(hung.result.err);
  CHECK(hung.result.exit_code == 1);
  CHECK(hung.result.err == "graft: container c9: plugin " + hung.plugin + ": " + phase + kDidNotFinish);
}

TEST_CASE("a plugin hanging in apply still leaves one error audit record with the line's text",
          "[hook][hostile][deadline]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  std::string audit = host().path("/hung-plugin/audit.jsonl");
  fs::remove(audit);
  auto hung = hook_hanging_in("apply", audit);
  INFO(hung.result.err);
  REQUIRE(hung.result.exit_code == 1);
  auto records = records_in(audit);
  REQUIRE(records.size() == 1);
  std::string line = hung.result.err.substr(7, hung.result.err.size() - 8);  // without "graft: " and "\n"
  CHECK(records[0]["error"] == line);
  CHECK(records[0]["outcome"] == "error");
  CHECK(records[0]["id"] == "c9");
  CHECK(records[0]["actions"].get<int>() > 0);  // the plan was made, so the record carries it
  CHECK(records[0]["decisions"]["granted"]["devices"].size() == 1);
}

TEST_CASE("a plugin hanging in apply ends graft apply at the deadline with one line",
          "[apply][hostile][deadline]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::string bundle = hung_bundle("apply-command");
  auto result = testing::run_command(testing::bounded_graft(
      {"--policy", hang_policy(plugins.path(), "apply"), "apply", "--pid", std::to_string(container.pid()),
       "--rootfs", bundle + "/rootfs", "--bundle", bundle, "--id", "lxc1", "--trust-pid"}));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container lxc1: plugin ") &&
                             Catch::EndsWith(": apply" + kDidNotFinish));
}
