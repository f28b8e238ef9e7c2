// SPDX-License-Identifier: Apache-2.0
// The line that says what a stopped `graft apply` left in the container.
#include "apply/apply_progress.hpp"

#include <map>

#include <fmt/format.h>

namespace graft {
namespace {

// "4 bind_mount, 2 cgroup_allow", kinds in the order the plan first uses them.
std::string count_by_kind(const Plan& plan, std::size_t applied) {
  std::vector<ActionKind> order;
  std::map<ActionKind, std::size_t> counts;
  for (std::size_t i = 0; i < applied && i < plan.actions.size(); ++i) {
    ActionKind kind = plan.actions[i].kind;
    if (counts[kind]++ == 0) order.push_back(kind);
  }
  std::string out;
  for (ActionKind kind : order)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", counts[kind], to_string(kind));
  return out;
}

}  // namespace

bool left_changes(const ApplyProgress& progress) {
  return (progress.phase == ApplyPhase::applying && progress.applied > 0) ||
         progress.phase == ApplyPhase::finishing;
}

std::string describe_stop(const Plan& plan, const ApplyProgress& progress, const Error& error) {
  const std::size_t total = plan.actions.size();
  if (progress.phase == ApplyPhase::finishing)
    return fmt::format(
        "apply stopped in a plugin's finish ({}); applied and left in the container: all {} "
        "actions ({}), some plugins' finish not run; see `graft plan` for them",
        error.message, total, count_by_kind(plan, total));
  return fmt::format(
      "apply stopped at action {} of {} ({}); applied and left in the container: {} action{} "
      "({}), and no plugin's finish ran; see `graft plan` for them",
      progress.applied + 1, total, error.message, progress.applied,
      progress.applied == 1 ? "" : "s", count_by_kind(plan, progress.applied));
}

}  // namespace graft
