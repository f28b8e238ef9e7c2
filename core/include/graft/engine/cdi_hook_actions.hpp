// SPDX-License-Identifier: Apache-2.0
// The options of `graft cdi-hook`: the residual actions of a split plan (what
// a CDI spec or config.json cannot express) as the command line an auditor
// reads in the spec. Each option says plainly what the hook will do, and
// names the container path first:
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
// Plain data; the engine turns it into actions and back
// (core/src/container_edits/hook_arguments.hpp).
#pragma once

#include <string>
#include <vector>

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

}  // namespace graft
