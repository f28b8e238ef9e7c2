// SPDX-License-Identifier: Apache-2.0
// Apply order and merging. Order follows what must exist before what: the
// procfs mask before binds beneath it, files before the links that name
// them, device nodes with their cgroup rules, the ld cache last. Within a
// step, actions sort by target so two runs print the same plan.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "plan/plan_context.hpp"

namespace graft {
namespace {

int step_of(const Action& action) {
  switch (action.kind) {
    case ActionKind::procfs_mask: return 0;
    case ActionKind::bind_mount:
      if (action.plugin == "procfs") return 1;
      if (action.plugin == "libraries") return 2;
      if (action.plugin == "ipc") return 4;
      return 5;
    case ActionKind::symlink: return 3;
    case ActionKind::config_file: return 3;
    case ActionKind::device_node: return 6;
    case ActionKind::cgroup_allow: return 7;
    case ActionKind::env: return 8;
    case ActionKind::ldcache_update: return 9;
  }
  return 10;
}

bool same_effect(const Action& a, const Action& b) {
  return a.kind == b.kind && a.plugin == b.plugin && a.source == b.source &&
         a.options == b.options && a.major == b.major && a.minor == b.minor &&
         a.content == b.content && a.paths == b.paths && a.access == b.access;
}

std::string conflict_side(const Action& action) {
  std::string what = action.kind == ActionKind::config_file
                         ? fmt::format("of {} bytes", action.content.size())
                         : (action.source.empty() ? action.content : action.source);
  return fmt::format("{} {} ({})", to_string(action.kind), what, action.provenance.origin.brief());
}

}  // namespace

Status order_and_merge(Plan& plan) {
  std::stable_sort(plan.actions.begin(), plan.actions.end(), [](const Action& a, const Action& b) {
    int step_a = step_of(a), step_b = step_of(b);
    return step_a != step_b ? step_a < step_b : a.target < b.target;
  });
  std::vector<Action> merged;
  std::map<std::string, size_t> by_target;  // target -> index in merged
  for (auto& action : plan.actions) {
    // cgroup rules are keyed by device number; everything else by path.
    std::string key = action.kind == ActionKind::cgroup_allow ? "cgroup " + action.target
                      : action.kind == ActionKind::env        ? "env " + action.target
                                                              : action.target;
    auto seen = by_target.find(key);
    if (seen == by_target.end()) {
      by_target.emplace(key, merged.size());
      merged.push_back(std::move(action));
      continue;
    }
    const Action& first = merged[seen->second];
    if (!same_effect(first, action))
      return make_error("conflicting actions on {}: {} versus {}", action.target, conflict_side(first),
                        conflict_side(action));
  }
  plan.actions = std::move(merged);
  return ok_status();
}

}  // namespace graft
