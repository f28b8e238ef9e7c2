// SPDX-License-Identifier: Apache-2.0
// What `graft apply` says when a plan stops part-way on a running container
// (core/src/apply/apply_progress.hpp): which action stopped it, why, and how
// many of each kind stayed in the container.
#include <catch2/catch.hpp>

#include "apply/apply_progress.hpp"

using namespace graft;

namespace {

Plan plan_of(std::initializer_list<ActionKind> kinds) {
  Plan plan;
  for (ActionKind kind : kinds) plan.actions.push_back(Action{.kind = kind});
  return plan;
}

const Plan kPlan = plan_of({ActionKind::device_node, ActionKind::bind_mount, ActionKind::bind_mount,
                            ActionKind::cgroup_allow, ActionKind::symlink});

}  // namespace

TEST_CASE("A plan stopped before its first action applied left nothing to report", "[apply]") {
  CHECK_FALSE(left_changes({.phase = ApplyPhase::before_apply, .applied = 0}));
  CHECK_FALSE(left_changes({.phase = ApplyPhase::applying, .applied = 0}));
  CHECK(left_changes({.phase = ApplyPhase::applying, .applied = 1}));
  CHECK(left_changes({.phase = ApplyPhase::finishing, .applied = 5}));
}

TEST_CASE("A plan stopped at an action names it and counts what stayed, by kind", "[apply]") {
  Error why{"plugin /p/libcgroup.so: cgroup_allow c 195:1: failed"};
  CHECK(describe_stop(kPlan, {.phase = ApplyPhase::applying, .applied = 3}, why) ==
        "apply stopped at action 4 of 5 (plugin /p/libcgroup.so: cgroup_allow c 195:1: failed); "
        "applied and left in the container: 3 actions (1 device_node, 2 bind_mount), and no "
        "plugin's finish ran; see `graft plan` for them");
}

TEST_CASE("A plan stopped in a plugin's finish says every action stayed", "[apply]") {
  Error why{"plugin /p/libcgroup.so: finish: no bpffs"};
  CHECK(describe_stop(kPlan, {.phase = ApplyPhase::finishing, .applied = 5}, why) ==
        "apply stopped in a plugin's finish (plugin /p/libcgroup.so: finish: no bpffs); applied "
        "and left in the container: all 5 actions (1 device_node, 2 bind_mount, 1 cgroup_allow, "
        "1 symlink), some plugins' finish not run; see `graft plan` for them");
}
