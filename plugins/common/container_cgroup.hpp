// SPDX-License-Identifier: Apache-2.0
// Finding a container's device cgroup from its pid, the way runc/crun and
// the kernel see it: the mode from statfs(cgroup_root), the cgroup from
// /proc/<pid>/cgroup (confirmed through the pidfd; graft_base parses it), the mount point from the
// kernel by mount id (mount_by_id.hpp) or else /proc/self/mountinfo. Runs in the
// host's mount namespace (prepare); the result is an O_PATH fd of the
// cgroup directory that later phases use instead of any path. Shared: the
// cgroup plugin writes the container's device rules there, the ldcache
// plugin runs ldconfig inside it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "mount_by_id.hpp"

namespace graft::cgroup {

enum class CgroupMode { v1, v2 };

// The cgroup (v1) and cgroup2 mounts of a mountinfo text, in its order. A
// node running many containers has thousands of other mounts: their lines
// are looked at, never copied.
std::vector<MountEntry> parse_cgroup_mounts(std::string_view text);

// Whether `options` (comma-separated) contains `word` as one item.
bool has_item(std::string_view options, std::string_view word);

// mount_point + (path relative to the mount's root), or an error when the
// cgroup lies outside what that mount shows.
Result<std::string> join_cgroup_path(const MountEntry& mount, const std::string& cgroup_path);

// v2 when statfs(cgroup_root) is a cgroup2 filesystem (the unified layout),
// else v1: the same test runc and crun make.
Result<CgroupMode> detect_mode(const std::string& cgroup_root);

struct ContainerCgroup {
  CgroupMode mode = CgroupMode::v1;
  std::string path;   // host path, for messages
  UniqueFd dir;     // O_PATH|O_DIRECTORY of the cgroup
};

// The device cgroup of `pid`. `cgroup_root` decides the mode and, in v2,
// is the cgroup2 mount point used. `pidfd` is the host's pidfd of `pid`
// (-1: the plugin opens its own): /proc/<pid>/cgroup is read, then the
// process confirmed still running, else "container process N exited while
// graft read its cgroup".
Result<ContainerCgroup> find_container_cgroup(int pid, int pidfd, const std::string& cgroup_root);

}  // namespace graft::cgroup
