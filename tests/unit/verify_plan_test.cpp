// SPDX-License-Identifier: Apache-2.0
// Core's side of `graft verify` (core/src/verify/verify_plan.hpp): each
// action goes to its plugin's verify, findings come back with the action's
// kind, target and provenance, and what no plugin checks is counted rather
// than passed: a plugin built before ABI 1.3 (its descriptor ends before
// `verify`, which is never read) and env actions. The container here is
// this test process: its /proc/<pid>/root is the host's root.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "plugin_host/plugin_loader.hpp"
#include "temp_dir.hpp"
#include "verify/verify_plan.hpp"

using namespace graft;
namespace fs = std::filesystem;

namespace {

// lib<name>.so from the build tree's test or plugin directory, in a
// directory the loader trusts (mode 0700, the file 0755).
struct VerifyPluginDir {
  fixture::TempDir temp{"graft-verify-plugins-"};
  void add(const std::string& from, const std::string& name) {
    fs::path to = fs::path(temp.path()) / ("lib" + name + ".so");
    fs::copy_file(fs::path(from) / ("lib" + name + ".so"), to);
    fs::permissions(to, fs::perms(0755));
  }
  PluginSet load(const std::vector<std::string>& names) {
    PluginSet set;
    for (const auto& name : names) {
      auto plugin = load_plugin(temp.path(), name);
      INFO((plugin.ok() ? std::string() : plugin.error().message));
      REQUIRE(plugin.ok());
      REQUIRE(set.add(std::move(*plugin)).ok());
    }
    return set;
  }
};

Plan plan_of(std::vector<Action> actions) {
  Plan plan;
  plan.inject = true;
  plan.actions = std::move(actions);
  return plan;
}

Result<VerifyReport> verify_here(const Plan& plan, PluginSet& plugins) {
  auto process = ContainerProcess::open(::getpid());
  REQUIRE(process.ok());
  return verify_plan(plan, plugins, {.container_id = "c1", .process = *process});
}

}  // namespace

TEST_CASE("a plugin built for ABI 1.2 loads, and its actions count as not checked", "[verify][plugins]") {
  VerifyPluginDir dir;
  dir.add(GRAFT_TEST_PLUGIN_DIR, "abi12");
  auto plugins = dir.load({"abi12"});
  REQUIRE_FALSE(plugins.plugins().front()->verifies());
  Plan plan = plan_of({Action{.kind = ActionKind::symlink, .plugin = "abi12", .source = "libx.so.1",
                              .target = "/usr/lib/libx.so"}});
  auto report = verify_here(plan, plugins);
  INFO((report.ok() ? std::string() : report.error().message));
  REQUIRE(report.ok());
  CHECK_FALSE(report->drifted());
  CHECK(report->held == 0);
  CHECK(report->not_checked.at(ActionKind::symlink) == 1);
}

TEST_CASE("a finding comes back with the action's kind, target and provenance", "[verify][plugins]") {
  VerifyPluginDir dir;
  dir.add(GRAFT_BUILD_PLUGIN_DIR, "libraries");
  auto plugins = dir.load({"libraries"});
  fixture::TempDir host("graft-verify-host-");
  const std::string library = host.path() + "/libx.so.1";
  std::ofstream(library) << "not really a library";
  Action bind{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = library,
              .target = "/graft-verify-no-such-target/libx.so.1", .options = {"ro"}};
  bind.provenance = {"compute", "compute", Origin{"/etc/graft/graft.toml", 12, 1}};
  Action env{.kind = ActionKind::env, .plugin = kRuntimeConfigExecutor, .target = "A", .content = "b"};
  auto report = verify_here(plan_of({bind, env}), plugins);
  INFO((report.ok() ? std::string() : report.error().message));
  REQUIRE(report.ok());
  REQUIRE(report->drifts.size() == 1);
  const Drift& drift = report->drifts.front();
  CHECK(drift.kind == ActionKind::bind_mount);
  CHECK(drift.target == bind.target);
  CHECK_FALSE(drift.unknown);
  CHECK(drift.expected == "a mount of " + library);
  CHECK(drift.found == "missing");
  CHECK(drift.provenance.origin.brief() == "graft.toml:12");
  CHECK(report->not_checked.at(ActionKind::env) == 1);
}

TEST_CASE("an action whose plugin is not loaded stops verify with one line naming it", "[verify][plugins]") {
  PluginSet none;
  auto report = verify_here(plan_of({Action{.kind = ActionKind::cgroup_allow, .plugin = "cgroup",
                                            .target = "c 195:1", .device_type = 'c', .major = 195,
                                            .minor = 1, .access = "rw"}}),
                            none);
  REQUIRE_FALSE(report.ok());
  CHECK(report.error().message == "plan action 1 (cgroup_allow c 195:1): plugin 'cgroup' is not loaded");
}
