// SPDX-License-Identifier: Apache-2.0
#include "container_edits/container_edits.hpp"

#include <algorithm>

namespace graft {
namespace {

bool under_proc(const std::string& target) { return target == "/proc" || target.starts_with("/proc/"); }

DeviceNodeEdit node_edit(const Action& action) {
  bool on_host = std::find(action.options.begin(), action.options.end(), "bind") != action.options.end();
  return {action.target, on_host ? action.source : "", action.device_type, action.major, action.minor};
}

MountEdit mount_edit(const Action& action) {
  MountEdit mount{action.source, action.target, action.options};
  if (std::find(mount.options.begin(), mount.options.end(), "bind") == mount.options.end())
    mount.options.push_back("bind");
  return mount;
}

}  // namespace

bool natively_expressible(const Action& action) {
  switch (action.kind) {
    case ActionKind::device_node:
    case ActionKind::cgroup_allow:
    case ActionKind::env: return true;
    case ActionKind::bind_mount: return !under_proc(action.target);
    case ActionKind::symlink:
    case ActionKind::procfs_mask:
    case ActionKind::config_file:
    case ActionKind::ldcache_update: return false;
  }
  return false;
}

ContainerEdits split_plan(const Plan& plan) {
  ContainerEdits edits;
  for (const Action& action : plan.actions) {
    if (!natively_expressible(action)) {
      edits.residual.push_back(action);
      continue;
    }
    switch (action.kind) {
      case ActionKind::device_node: edits.device_nodes.push_back(node_edit(action)); break;
      case ActionKind::cgroup_allow:
        edits.device_rules.push_back({action.device_type, action.major, action.minor, action.access});
        break;
      case ActionKind::env: edits.env.push_back({action.target, action.content}); break;
      default: edits.mounts.push_back(mount_edit(action)); break;  // bind_mount
    }
  }
  return edits;
}

}  // namespace graft
