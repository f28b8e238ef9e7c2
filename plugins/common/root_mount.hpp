// SPDX-License-Identifier: Apache-2.0
// Which mount a container target must land on. RESOLVE_IN_ROOT keeps a path
// inside the container root, not on the root's *mount*: an image symlink can
// steer a target onto a volume the runtime mounted (a bind of a host
// directory), onto /dev/shm, or onto a bind graft made earlier. So every
// directory graft creates something in is compared (statx STATX_MNT_ID) with
// the mount of the deepest directory on its path reached *without following
// a symlink* (walked from the root, one component at a time, O_NOFOLLOW).
// What sits at the literal path is there by the runtime's (or the plan's)
// own choice: the runtime's tmpfs at /dev (device nodes go there), procfs
// at /proc (the procfs mask), a tmpfs at /run or /tmp (IPC endpoints). What
// a symlink leads to is the image's choice, and must not change the mount:
// so /usr/lib/x86_64-linux-gnu -> /data (a volume) is refused, and a /dev
// target never lands on /dev/shm, /dev/mqueue or /dev/pts. A symlink that
// stays on the mount it starts from (a merged-/usr image's /lib -> usr/lib)
// is fine.
// A kernel without STATX_MNT_ID (before 5.8) cannot tell mounts apart this
// way: the check refuses rather than guess.
#pragma once

#include <cstdint>
#include <string>

#include "graft/base/error.hpp"

namespace graft::plugin {

// The mount id of the object `fd` refers to (statx STATX_MNT_ID).
Result<std::uint64_t> mount_id(int fd, const std::string& shown);

// Refuses unless `dir_fd` (the resolved directory `dir`, where `target` is
// placed or which is `target` itself) sits on the mount `target` belongs
// to inside the root `root_fd` (see above).
Status check_target_mount(int root_fd, int dir_fd, const std::string& target,
                          const std::string& dir);

}  // namespace graft::plugin
