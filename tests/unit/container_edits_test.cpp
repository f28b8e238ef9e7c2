// SPDX-License-Identifier: Apache-2.0
// split_plan: a plan as what a config expresses natively (device nodes,
// device rules, bind mounts, env) and the residual actions `graft cdi-hook`
// carries (container_edits/container_edits.hpp). Plans from make_plan with inputs
// built in code; no fake host, no root.
#include <catch2/catch.hpp>

#include <algorithm>

#include "container_edits/container_edits.hpp"
#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;

namespace {

Plan gpu0_compute_utility() { return planned(planning_host().build(), granting({0}, {"compute", "utility"})); }

std::vector<ActionKind> kinds_of(const std::vector<Action>& actions) {
  std::vector<ActionKind> kinds;
  for (const auto& action : actions) kinds.push_back(action.kind);
  return kinds;
}

}  // namespace

TEST_CASE("every device node of a plan becomes a native device node with its host path, type and numbers",
          "[edits]") {
  Plan plan = gpu0_compute_utility();
  ContainerEdits edits = split_plan(plan);
  auto nodes = actions_of(plan, ActionKind::device_node);
  REQUIRE(edits.device_nodes.size() == nodes.size());
  auto gpu0 = std::find_if(edits.device_nodes.begin(), edits.device_nodes.end(),
                           [](const DeviceNodeEdit& node) { return node.path == "/dev/gpu0"; });
  REQUIRE(gpu0 != edits.device_nodes.end());
  CHECK(*gpu0 == DeviceNodeEdit{"/dev/gpu0", find_action(plan, ActionKind::device_node, "/dev/gpu0")->source,
                                'c', 195, 0});
}

TEST_CASE("a device node the host lacks is native without a host path, for the runtime to make",
          "[edits]") {
  Plan plan;
  plan.actions.push_back(Action{.kind = ActionKind::device_node, .plugin = "devices", .source = "/dev/gpu-uvm",
                                .target = "/dev/gpu-uvm", .options = {"mknod"}, .device_type = 'c',
                                .major = 510, .minor = 0});
  CHECK(split_plan(plan).device_nodes == std::vector<DeviceNodeEdit>{{"/dev/gpu-uvm", "", 'c', 510, 0}});
}

TEST_CASE("every cgroup rule of a plan becomes a native device rule", "[edits]") {
  Plan plan = gpu0_compute_utility();
  ContainerEdits edits = split_plan(plan);
  REQUIRE(edits.device_rules.size() == actions_of(plan, ActionKind::cgroup_allow).size());
  CHECK(std::count(edits.device_rules.begin(), edits.device_rules.end(), DeviceRuleEdit{'c', 195, 0, "rw"}) == 1);
}

TEST_CASE("bind mounts outside /proc are native mounts with the plan's options and bind", "[edits]") {
  Plan plan = gpu0_compute_utility();
  ContainerEdits edits = split_plan(plan);
  const Action* library = nullptr;
  for (const auto& action : plan.actions)
    if (action.kind == ActionKind::bind_mount && action.plugin == "libraries") library = &action;
  REQUIRE(library);
  MountEdit expected{library->source, library->target, {"ro", "nosuid", "nodev", "bind"}};
  CHECK(std::count(edits.mounts.begin(), edits.mounts.end(), expected) == 1);
  for (const auto& mount : edits.mounts) CHECK_FALSE(mount.container_path.starts_with("/proc"));
}

TEST_CASE("binds under /proc stay with graft: runc refuses mounts inside /proc and they sit on the mask",
          "[edits]") {
  ContainerEdits edits = split_plan(gpu0_compute_utility());
  auto binds = std::count_if(edits.residual.begin(), edits.residual.end(), [](const Action& action) {
    return action.kind == ActionKind::bind_mount && action.target == "/proc/driver/gpu/gpus/0000:01:00.0";
  });
  CHECK(binds == 1);
}

TEST_CASE("links, the ld cache, the procfs mask and written files are residual, in plan order", "[edits]") {
  Intent intent = granting({0}, {"compute"});
  intent.files.push_back({"/etc/gpu/profile.conf", "visible = 0\n", {"profile", {}}});
  Plan plan = planned(planning_host().build(), intent);
  ContainerEdits edits = split_plan(plan);
  std::vector<Action> expected;
  for (const auto& action : plan.actions)
    if (!natively_expressible(action)) expected.push_back(action);
  CHECK(kinds_of(edits.residual) == kinds_of(expected));
  std::vector<ActionKind> residual = kinds_of(edits.residual);
  for (ActionKind kind : {ActionKind::symlink, ActionKind::ldcache_update, ActionKind::procfs_mask,
                          ActionKind::config_file}) {
    INFO(to_string(kind));
    CHECK(std::count(residual.begin(), residual.end(), kind) ==
          static_cast<long>(actions_of(plan, kind).size()));
    CHECK_FALSE(actions_of(plan, kind).empty());
  }
}

TEST_CASE("env a plan sets is native: a config can set it where a hook cannot", "[edits]") {
  Intent intent = granting({0}, {});
  intent.env.push_back({"GPU_VISIBLE", "0", {"visible", {}}});
  ContainerEdits edits = split_plan(planned(planning_host().build(), intent));
  CHECK(edits.env == std::vector<EnvEdit>{{"GPU_VISIBLE", "0"}});
  for (const auto& action : edits.residual) CHECK(action.kind != ActionKind::env);
}

TEST_CASE("every action of a plan lands in exactly one place", "[edits]") {
  Plan plan = gpu0_compute_utility();
  ContainerEdits edits = split_plan(plan);
  CHECK(edits.device_nodes.size() + edits.device_rules.size() + edits.mounts.size() + edits.env.size() +
            edits.residual.size() ==
        plan.actions.size());
}
