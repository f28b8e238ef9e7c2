// SPDX-License-Identifier: Apache-2.0
// The residual actions of a split plan (container_edits.hpp) as the
// command line of `graft cdi-hook`, and back. The command line is what an
// auditor reads in a CDI spec or config.json, so each option says plainly
// what the hook will do, and names the container path first:
//
//   --link PATH::VALUE          make the symlink PATH -> VALUE
//   --file PATH::CONTENT        write CONTENT to the file PATH (0644)
//   --procfs-mask PATH::HOST    a tmpfs at PATH holding copies of HOST's files
//   --procfs-keep NAME          ...of this file (repeatable)
//   --procfs-rewrite 'NAME: FROM => TO'   ...with this edit (repeatable)
//   --procfs-bind PATH::HOST    bind HOST at PATH read-only (ro,nosuid,nodev,noexec)
//   --procfs-bind-if DEV[,DEV...]::PATH::HOST
//                               the same, only when the container's config.json
//                               (linux.devices) has every device node DEV
//   --ldcache-dir DIR           refresh /etc/ld.so.cache with DIR (repeatable)
//   --ldcache-entry PATH        ...and refuse a cache that does not list PATH
//
// Everything else (mount options, plugin, the cache file) is fixed by the
// option, so an action whose fields differ from that cannot be encoded and
// is an error, never silently changed. Pure.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"

namespace graft {

// The options, as `graft cdi-hook` parses them.
struct CdiHookActions {
  std::vector<std::string> links;            // PATH::VALUE
  std::vector<std::string> files;            // PATH::CONTENT
  std::string procfs_mask;                   // PATH::HOST, at most one
  std::vector<std::string> procfs_keep;
  std::vector<std::string> procfs_rewrites;  // "NAME: FROM => TO"
  std::vector<std::string> procfs_binds;     // PATH::HOST
  std::vector<std::string> procfs_binds_if;  // DEV[,DEV...]::PATH::HOST
  std::vector<std::string> ldcache_dirs;
  std::vector<std::string> ldcache_entries;

  bool empty() const;
  bool operator==(const CdiHookActions&) const = default;
};

// The options that carry `residual`; an error names an action no option
// expresses exactly.
Result<CdiHookActions> cdi_hook_actions_of(const std::vector<Action>& residual);

// The options as arguments ("--link", "PATH::VALUE", ...), in the order of
// the table above.
std::vector<std::string> cdi_hook_arguments(const CdiHookActions& actions);

// A hook as OCI config.json and CDI specs write it.
struct HookCommand {
  std::string path;               // absolute: the graft binary
  std::vector<std::string> args;  // argv, args[0] included
  std::vector<std::string> env;   // always given: the hook gets only this
  bool operator==(const HookCommand&) const = default;
};

// The PATH every hook graft emits gets, and nothing else: without an
// explicit env a runtime or CDI consumer could hand the hook variables
// (LD_PRELOAD, LD_LIBRARY_PATH) from somewhere graft does not control.
inline constexpr const char* kHookPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// `graft --policy POLICY cdi-hook createRuntime OPTIONS...` with env {kHookPath}.
HookCommand cdi_hook_command(const std::string& graft_binary, const std::string& policy,
                             const CdiHookActions& actions);

// The actions the options name, checked (absolute paths, "::" present, keep
// and rewrite only with a mask, entries only with a dir), in apply order.
// `device_paths` are the container's device nodes (Request::device_paths):
// a --procfs-bind-if whose nodes are all among them is a bind, others none.
Result<std::vector<Action>> actions_from_cdi_hook(const CdiHookActions& actions,
                                                  const std::vector<std::string>& device_paths = {});

}  // namespace graft
