// SPDX-License-Identifier: Apache-2.0
#include "cdi/host_root.hpp"

#include "paths/paths.hpp"

namespace graft::cdi {
namespace {

bool is_this_host(const std::string& host_root) { return host_root.empty() || normalize_path(host_root) == "/"; }

// Symlink sources are link values inside the container, config_file sources
// name content: only these name host files.
bool names_host_file(ActionKind kind) {
  return kind == ActionKind::device_node || kind == ActionKind::bind_mount || kind == ActionKind::procfs_mask;
}

}  // namespace

HostRoots roots_under(const HostRoots& roots, const std::string& host_root) {
  if (is_this_host(host_root)) return roots;
  return {join_root(host_root, roots.driver_root), join_root(host_root, roots.dev_root),
          join_root(host_root, roots.proc_root), join_root(host_root, roots.sys_root),
          join_root(host_root, roots.run_root)};
}

Result<std::string> path_on_host(const std::string& host_root, const std::string& seen) {
  if (is_this_host(host_root)) return seen;
  std::string root = normalize_path(host_root);
  std::string path = normalize_path(seen);
  if (path == root) return std::string("/");
  if (!seen.starts_with("/") || !path.starts_with(root + "/"))
    return make_error("{} is not under the host root {}, so the host has no such path", seen, root);
  return path.substr(root.size());
}

Result<Plan> plan_on_host(Plan plan, const std::string& host_root) {
  if (is_this_host(host_root)) return plan;
  for (Action& action : plan.actions) {
    if (!names_host_file(action.kind)) continue;
    auto host = path_on_host(host_root, action.source);
    if (!host) return host.error().context(action.target);
    action.source = *host;
  }
  return plan;
}

}  // namespace graft::cdi
