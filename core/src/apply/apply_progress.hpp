// SPDX-License-Identifier: Apache-2.0
// How far applying a plan got, and the one line `graft apply` prints when it
// stopped after changing a running container. A hook needs neither: the
// runtime kills a container whose prestart hook failed. `graft apply` has no
// one to do that, and undoing is not possible for everything (a device rule
// written to cgroup v1, files created in the rootfs), so graft says exactly
// which of the plan's actions stayed in place instead.
#pragma once

#include <cstddef>
#include <string>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"

namespace graft {

enum class ApplyPhase {
  before_apply,  // checking, prepare, entering: nothing in the container changed
  applying,      // actions 0 .. applied-1 are in place
  finishing,     // every action applied; some plugin's finish failed
  done,
};

struct ApplyProgress {
  ApplyPhase phase = ApplyPhase::before_apply;
  std::size_t applied = 0;  // actions whose apply succeeded, in plan order
};

// True when the container was changed before `error` stopped the plan.
bool left_changes(const ApplyProgress& progress);

// The line for a plan that stopped part-way, for example:
// "apply stopped at action 7 of 12 (<why>); applied and left in the
// container: 6 actions (4 bind_mount, 2 cgroup_allow), and no plugin's
// finish ran; see `graft plan` for them". Only when left_changes.
std::string describe_stop(const Plan& plan, const ApplyProgress& progress, const Error& error);

}  // namespace graft
