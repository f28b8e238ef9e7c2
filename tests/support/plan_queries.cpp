// SPDX-License-Identifier: Apache-2.0
#include "plan_queries.hpp"

namespace graft::test {

std::vector<Action> actions_of(const Plan& plan, ActionKind kind) {
  std::vector<Action> out;
  for (const auto& action : plan.actions)
    if (action.kind == kind) out.push_back(action);
  return out;
}

std::vector<std::string> targets(const Plan& plan, ActionKind kind) {
  std::vector<std::string> out;
  for (const auto& action : plan.actions)
    if (action.kind == kind) out.push_back(action.target);
  return out;
}

const Action* find_action(const Plan& plan, ActionKind kind, const std::string& target) {
  for (const auto& action : plan.actions)
    if (action.kind == kind && action.target == target) return &action;
  return nullptr;
}

bool has_target(const Plan& plan, ActionKind kind, const std::string& target) {
  return find_action(plan, kind, target) != nullptr;
}

bool mounts_file(const Plan& plan, const std::string& file) {
  for (const auto& action : plan.actions)
    if (action.kind == ActionKind::bind_mount && action.target.ends_with("/" + file)) return true;
  return false;
}

}  // namespace graft::test
