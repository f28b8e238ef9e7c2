// SPDX-License-Identifier: Apache-2.0
// What plan tests ask of a Plan: the actions of one kind, the one at a
// target, whether a file is mounted anywhere.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace graft::test {

// Every action of `kind`, and their targets, in plan order.
std::vector<Action> actions_of(const Plan& plan, ActionKind kind);
std::vector<std::string> targets(const Plan& plan, ActionKind kind);
// The action of `kind` at `target`, or nullptr.
const Action* find_action(const Plan& plan, ActionKind kind, const std::string& target);
bool has_target(const Plan& plan, ActionKind kind, const std::string& target);
// True when any bind mount target ends in `/<file>` (e.g. "libcuda.so.560.35.03").
bool mounts_file(const Plan& plan, const std::string& file);

}  // namespace graft::test
