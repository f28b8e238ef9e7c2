// SPDX-License-Identifier: Apache-2.0
// make_plan, called directly: the driver procfs view (a masking tmpfs plus
// the granted GPUs' directories) and the order a whole plan comes out in.
// Inputs built in code; no fake host, no root.
#include <catch2/catch.hpp>

#include <algorithm>

#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;

namespace {

// The apply steps, in the order order_and_merge puts them (plan/order.cpp).
int step_of(const Action& action) {
  switch (action.kind) {
    case ActionKind::procfs_mask: return 0;
    case ActionKind::bind_mount:
      return action.plugin == "procfs" ? 1 : action.plugin == "libraries" ? 2 : action.plugin == "ipc" ? 4 : 5;
    case ActionKind::symlink:
    case ActionKind::config_file: return 3;
    case ActionKind::device_node: return 6;
    case ActionKind::cgroup_allow: return 7;
    case ActionKind::env: return 8;
    case ActionKind::ldcache_update: return 9;
  }
  return -1;
}

// A plan with an action of every step: every set, GPU 0, the
// partition-config extra, an env grant and a written file.
Plan plan_of_every_step() {
  auto host = planning_host();
  host.char_major("gpu-caps", 511).partition_cap("config", 1).node("/dev/gpu-caps/cap1", 511, 1);
  Intent intent = granting({0}, {"compute", "utility", "ipc", "firmware", "config"});
  intent.extras.push_back({"partition-config", {"extra asked for", {}}});
  intent.env.push_back({"GPU_VISIBLE", "0", {"visible", {}}});
  intent.files.push_back({"/etc/gpu/profile.conf", "visible = 0\n", {"profile", {}}});
  return planned(host.build(), intent);
}

}  // namespace

TEST_CASE("the procfs mask copies the policy's files into a tmpfs, with the policy's rewrites", "[planner]") {
  Plan plan = planned(planning_host().build(), granting({0}, {}));
  const Action* mask = find_action(plan, ActionKind::procfs_mask, "/proc/driver/gpu");
  REQUIRE(mask);
  CHECK(mask->plugin == "procfs");
  CHECK(mask->source == "/proc/driver/gpu");
  CHECK(mask->options == std::vector<std::string>{"mode=0555", "nosuid", "nodev", "noexec"});
  CHECK(mask->paths == std::vector<std::string>{"version", "params"});
  CHECK(mask->rewrites == std::vector<std::string>{"params: ModifyDeviceFiles: 1 => ModifyDeviceFiles: 0"});
  CHECK(mask->provenance.origin.brief() == "test-policy.toml:40");
}

TEST_CASE("the procfs mask reads the driver's directory under the host's proc root", "[planner]") {
  Policy policy = planning_policy();
  policy.host.proc_root = "/host-proc";
  Plan plan = planned(planning_host().build(), granting({0}, {}), policy);
  const Action* mask = find_action(plan, ActionKind::procfs_mask, "/proc/driver/gpu");
  REQUIRE(mask);
  CHECK(mask->source == "/host-proc/proc/driver/gpu");
}

TEST_CASE("only the granted GPUs' procfs directories are shown, read-only, once each", "[planner]") {
  auto host = planning_host();
  host.partition(1, 1, 0, 11, 12).partition(1, 2, 0, 21, 22);
  for (unsigned minor : {11u, 12u, 21u, 22u}) host.node("/dev/gpu-caps/cap" + std::to_string(minor), 511, minor);
  Intent intent = granting({}, {});
  for (unsigned partition : {0u, 1u})
    intent.devices.push_back({.gpu = 1, .partition = partition, .reason = {"partition", {}}});
  Plan plan = planned(host.build(), intent);
  auto shown = targets(plan, ActionKind::bind_mount);
  CHECK(std::count(shown.begin(), shown.end(), "/proc/driver/gpu/gpus/0000:02:00.0") == 1);
  CHECK(std::count(shown.begin(), shown.end(), "/proc/driver/gpu/gpus/0000:01:00.0") == 0);
  const Action* dir = find_action(plan, ActionKind::bind_mount, "/proc/driver/gpu/gpus/0000:02:00.0");
  REQUIRE(dir);
  CHECK(dir->source == "/proc/driver/gpu/gpus/0000:02:00.0");
  CHECK(dir->options == std::vector<std::string>{"ro", "nosuid", "nodev", "noexec"});
  CHECK(dir->provenance.capability == "GPU 1");
}

TEST_CASE("a policy without a procfs mask gets no procfs view", "[planner]") {
  Policy policy = planning_policy();
  policy.procfs = {};
  Plan plan = planned(planning_host().build(), granting({0}, {}), policy);
  REQUIRE_FALSE(plan.actions.empty());
  CHECK(targets(plan, ActionKind::procfs_mask).empty());
  for (const auto& bind : actions_of(plan, ActionKind::bind_mount)) CHECK(bind.plugin != "procfs");
}

TEST_CASE("a plan comes out in apply order: mask, procfs, libraries, links and files, IPC, other binds, "
          "nodes, cgroup rules, env, ld cache",
          "[planner]") {
  Plan plan = plan_of_every_step();
  std::vector<int> steps;
  for (const auto& action : plan.actions) steps.push_back(step_of(action));
  CHECK(std::is_sorted(steps.begin(), steps.end()));
  for (int step = 0; step <= 9; ++step) {
    INFO("step " << step);
    CHECK(std::count(steps.begin(), steps.end(), step) > 0);
  }
}

TEST_CASE("within one apply step actions are sorted by target", "[planner]") {
  Plan plan = plan_of_every_step();
  for (auto kind : {ActionKind::device_node, ActionKind::cgroup_allow, ActionKind::symlink}) {
    INFO(to_string(kind));
    auto in_step = targets(plan, kind);
    REQUIRE(in_step.size() > 1);
    CHECK(std::is_sorted(in_step.begin(), in_step.end()));
  }
}

TEST_CASE("the same inputs always yield the same plan", "[planner]") {
  Plan first = plan_of_every_step(), second = plan_of_every_step();
  REQUIRE(first.actions.size() == second.actions.size());
  for (std::size_t i = 0; i < first.actions.size(); ++i) {
    CHECK(first.actions[i].kind == second.actions[i].kind);
    CHECK(first.actions[i].target == second.actions[i].target);
  }
}
