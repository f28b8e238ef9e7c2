// SPDX-License-Identifier: Apache-2.0
// Asking the kernel about a few mounts by id (statx's mount id, then
// statmount(2) and listmount(2), Linux 6.8) instead of reading every line of
// /proc/self/mountinfo: on a node running many containers that file holds
// thousands of mounts, and the kernel formatting it is most of what finding
// one cgroup mount costs. Each call answers "the kernel cannot say" (nullopt)
// rather than an error, so the caller keeps mountinfo as its fallback.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace graft::cgroup {

// What graft needs of one mount, in mountinfo's terms, unescaped.
struct MountEntry {
  std::string root;           // path inside the filesystem that is mounted
  std::string mount_point;    // where, in this mount namespace
  std::string fstype;
  std::string super_options;  // mountinfo: "rw,devices"; statmount: "devices"
};

// The mount `path` lies on, as the kernel resolves it now (the top one where
// mounts are stacked). nullopt when the kernel lacks statmount(2) or the
// unique mount id, or the path cannot be looked up.
std::optional<MountEntry> mount_at(const std::string& path);

// Every mount listmount(2) gives below the mount at `path`, in mount id
// order, as mountinfo lists them, without that mount itself: its children on
// Linux 6.8 to 6.10, all its descendants from 6.11. nullopt as mount_at, and
// also when `path` is not where a mount is mounted, or more than 64 mounts
// lie below it (a cgroup v1 layout has a dozen).
std::optional<std::vector<MountEntry>> mounts_below(const std::string& path);

}  // namespace graft::cgroup
