// Which mount a container target must land on. RESOLVE_IN_ROOT keeps a path
// inside the container root, not on the root's *mount*: an image symlink can
// steer a target onto a volume the runtime mounted (a bind of a host
// directory), onto /dev/shm, or onto a bind graft made earlier. So every
// directory graft creates something in is compared (statx STATX_MNT_ID) with
// the mount the target belongs to: the mount at /<first component> of the
// root, looked up as that single entry and never through a symlink. That is
// the root's own mount unless the runtime mounted something there: its
// tmpfs at /dev (device nodes), procfs at /proc (the procfs mask), or a
// tmpfs at /run or /tmp (IPC endpoints), where graft means to place things.
// So an image symlink cannot lead a target to a volume elsewhere, and a /dev
// target never lands on /dev/shm, /dev/mqueue or /dev/pts (other mounts).
// When /<first component> is not a directory (a merged-/usr image's
// /lib -> usr/lib), the target belongs to the root's mount.
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
