// Which mount a container target must land on. RESOLVE_IN_ROOT keeps a path
// inside the container root, not on the root's *mount*: an image symlink can
// steer a target onto a volume the runtime mounted (a bind of a host
// directory), onto /dev/shm, or onto a bind graft made earlier. So every
// directory graft creates something in is compared (statx STATX_MNT_ID) with
// the mount the target belongs to:
//   - a target whose first component is "dev" or "proc" belongs to the mount
//     at /dev (resp. /proc) of the root: the runtime mounts a tmpfs and procfs
//     there, and device nodes and the procfs mask go there on purpose. That
//     directory is looked up as the single entry "dev"/"proc" of the root,
//     never through a symlink, so an image cannot redirect it either; and
//     /dev/shm, /dev/mqueue, /dev/pts are other mounts, refused;
//   - every other target belongs to the mount of the container root itself.
// A kernel without STATX_MNT_ID (before 5.8) cannot tell mounts apart this
// way: the check refuses rather than guess.
#pragma once

#include <cstdint>
#include <string>

#include "base/error.hpp"

namespace graft::plugin {

// The mount id of the object `fd` refers to (statx STATX_MNT_ID).
Result<std::uint64_t> mount_id(int fd, const std::string& shown);

// Refuses unless `dir_fd` (the resolved directory `dir`, where `target` is
// placed or which is `target` itself) sits on the mount `target` belongs
// to inside the root `root_fd` (see above).
Status check_target_mount(int root_fd, int dir_fd, const std::string& target,
                          const std::string& dir);

}  // namespace graft::plugin
