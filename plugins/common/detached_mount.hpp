// SPDX-License-Identifier: Apache-2.0
// Mounts by file descriptor (the new mount API): a host source is cloned into
// a detached mount in prepare, while graft is still in the host's mount
// namespace (the kernel refuses to clone a mount of another namespace, so
// this cannot wait until after setns), its flags are set while it is still
// detached, and apply only attaches it onto a target fd that was resolved
// inside the container root. No path string ever names a mount target.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"

namespace graft::plugin {

// MOUNT_ATTR_* bits to set and to clear with mount_setattr.
struct MountAttributes {
  std::uint64_t set = 0;
  std::uint64_t clear = 0;
};

// The plan's ro/rw/nosuid/nodev/noexec as attributes. A flag the options name
// is set and one they leave out is cleared, so the clone carries exactly what
// the plan says whatever the source mount had; without "rw" it is read-only.
// Words in `ignored` are accepted and skipped; any other word is an error
// (an option nobody executes must not pass silently).
Result<MountAttributes> mount_attributes(const graft_action& action,
                                         std::initializer_list<const char*> ignored = {});

// open_tree(OPEN_TREE_CLONE) of the object `source_fd` refers to: a detached
// copy of that one mount (not its submounts). `shown` names it in errors.
Result<UniqueFd> clone_mount(int source_fd, const std::string& shown);

// mount_setattr on the mount `mount_fd` refers to (not recursive); it also
// makes the mount private, so no clone stays a peer of the host's mount.
Status set_mount_attributes(int mount_fd, const MountAttributes& attributes,
                            const std::string& shown);

// move_mount of `mount_fd` onto the object `target_fd` refers to. The mount
// and its target must agree: directory onto directory, non-directory onto
// non-directory (the kernel refuses anything else).
Status attach_mount(int mount_fd, int target_fd, const std::string& shown);

// A new detached tmpfs (fsopen/fsconfig/fsmount) with string parameters such
// as {"mode", "0555"}, {"size", "1m"} and MOUNT_ATTR_* `attributes`.
Result<UniqueFd> make_tmpfs(const std::vector<std::pair<std::string, std::string>>& parameters,
                            std::uint64_t attributes, const std::string& shown);

}  // namespace graft::plugin
