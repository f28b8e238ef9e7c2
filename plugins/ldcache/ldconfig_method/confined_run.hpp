// SPDX-License-Identifier: Apache-2.0
// Runs a sealed host executable confined to a container root, the way
// libnvidia-container runs the host's ldconfig and then some: a child in its
// own mount, pid, network and IPC namespaces, created inside the container's
// device cgroup, chrooted into a private copy of the root whose every mount
// is nodev,nosuid,noexec, with no capabilities (bounding set included),
// no_new_privs, a seccomp deny list (child_seccomp.hpp), resource limits, an
// empty environment and no fds but a pipe for stderr. The parent collects
// stderr and enforces a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "graft/base/error.hpp"

namespace graft::ldcache {

struct ConfinedCommand {
  int exe_fd = -1;                 // sealed memfd (seal_host_binary); not consumed
  int root_fd = -1;                // O_PATH directory that becomes the child's "/"
  std::string root_name;           // the root as a path, for messages only
  std::vector<std::string> argv;   // argv[0] first; exec'd with an empty environment
  uid_t uid = 0;                   // identity inside: 0 stays root without capabilities,
  gid_t gid = 0;                   //   another id is taken as the rootfs owner's
  // The container's device cgroup, which the child must be in before it
  // executes anything; both -1: none (no container pid), nodev alone then.
  int cgroup_dir_fd = -1;          // cgroup v2: the cgroup, for CLONE_INTO_CGROUP
  int cgroup_procs_fd = -1;        // cgroup v1: the devices cgroup's cgroup.procs, for writing
  std::string cgroup_name;         // the cgroup as a path, for messages only
  std::chrono::milliseconds timeout{10000};
};

// Runs `command` to completion. An error is one line naming the root, how the
// child ended (exit status, signal, timeout) and the first line of its stderr.
Status run_confined(const ConfinedCommand& command);

}  // namespace graft::ldcache
