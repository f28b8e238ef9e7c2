// SPDX-License-Identifier: Apache-2.0
// Action -> graft_action. The kind numbers are the ABI's, not the C++ enum's
// order, so reordering ActionKind can never change what a plugin receives.
#include "plugin_host/action_view.hpp"

namespace graft {

namespace {

struct KindPair {
  ActionKind kind;
  std::uint32_t abi;
};

constexpr KindPair kKinds[] = {
    {ActionKind::device_node, GRAFT_ACTION_DEVICE_NODE},
    {ActionKind::cgroup_allow, GRAFT_ACTION_CGROUP_ALLOW},
    {ActionKind::bind_mount, GRAFT_ACTION_BIND_MOUNT},
    {ActionKind::symlink, GRAFT_ACTION_SYMLINK},
    {ActionKind::procfs_mask, GRAFT_ACTION_PROCFS_MASK},
    {ActionKind::config_file, GRAFT_ACTION_CONFIG_FILE},
    {ActionKind::env, GRAFT_ACTION_ENV},
    {ActionKind::ldcache_update, GRAFT_ACTION_LDCACHE_UPDATE},
};

std::vector<const char*> c_list(const std::vector<std::string>& items) {
  std::vector<const char*> list;
  list.reserve(items.size() + 1);
  for (const auto& item : items) list.push_back(item.c_str());
  list.push_back(nullptr);
  return list;
}

}  // namespace

std::uint32_t to_abi_kind(ActionKind kind) {
  for (const auto& pair : kKinds)
    if (pair.kind == kind) return pair.abi;
  return 0;  // unreachable while kKinds lists every ActionKind
}

std::optional<ActionKind> from_abi_kind(std::uint32_t kind) {
  for (const auto& pair : kKinds)
    if (pair.abi == kind) return pair.kind;
  return std::nullopt;
}

ActionView::ActionView(const Action& action, std::uint32_t index)
    : origin_(action.provenance.origin.empty() ? "" : action.provenance.origin.brief()),
      options_(c_list(action.options)),
      paths_(c_list(action.paths)),
      rewrites_(c_list(action.rewrites)) {
  view_.struct_size = sizeof(graft_action);
  view_.kind = to_abi_kind(action.kind);
  view_.plugin = action.plugin.c_str();
  view_.source = action.source.c_str();
  view_.target = action.target.c_str();
  view_.options = options_.data();
  view_.device_type = action.device_type;
  view_.major = action.major;
  view_.minor = action.minor;
  view_.access = action.access.c_str();
  view_.content = action.content.c_str();
  view_.content_length = action.content.size();
  view_.paths = paths_.data();
  view_.rewrites = rewrites_.data();
  view_.capability = action.provenance.capability.c_str();
  view_.reason = action.provenance.reason.c_str();
  view_.origin = origin_.c_str();
  view_.index = index;
}

}  // namespace graft
