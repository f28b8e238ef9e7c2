// SPDX-License-Identifier: Apache-2.0
// `graft verify` for what a plan put at a container path: a bind of a host
// file, directory or device node must still be that very object (the same
// st_dev and st_ino as the host source) and still a mount point (its statx
// mount id differs from its parent directory's); a node graft made with
// mknod must still be a node of that type and number. The target is looked
// up inside the running container's root (the host's /proc/<pid>/root fd)
// with resolve_in_root and O_PATH|O_NOFOLLOW: the image owns that tree, so
// nothing there is followed out of it, opened for reading, or trusted.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <string>

#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::plugin {

// The host object a bind mounted, as fstat saw it on the host.
struct BoundSource {
  std::string path;  // the host path, for messages
  struct stat st {};
  char device_type = 0;  // 'c' or 'b' for a device node, else 0
};

// Reports a finding when `target` no longer holds a mount of `source`.
// Fails only without a container root to look in.
Status check_bind(const Host& host, const graft_apply_context& context, const std::string& target,
                  const BoundSource& source, const Findings& findings);

// Reports a finding when `target` is no longer a `device_type` node of
// number `rdev`.
Status check_node(const Host& host, const graft_apply_context& context, const std::string& target,
                  char device_type, dev_t rdev, const Findings& findings);

// "c 195:1", for messages.
std::string device_text(char device_type, dev_t rdev);

}  // namespace graft::plugin
