// SPDX-License-Identifier: Apache-2.0
// Entering a container's mount namespace. graft opens and verifies every
// host object first (plugins' prepare), then joins the namespace of the
// container's init process, where apply attaches them inside root.path.
#pragma once

#include "apply/container_process.hpp"
#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

// Our own mount namespace while we visit a container's: leaving returns to
// it, so whatever runs after applying (the audit line, the process's exit
// handlers) sees the host's filesystem and /proc, not the container's.
class MountNamespaceVisit {
 public:
  MountNamespaceVisit() = default;
  ~MountNamespaceVisit();
  MountNamespaceVisit(const MountNamespaceVisit&) = delete;
  MountNamespaceVisit& operator=(const MountNamespaceVisit&) = delete;

  // setns into the mount namespace of `process`, through its pidfd so a
  // recycled pid cannot redirect us. A process that shares our namespace is
  // refused (check_mount_namespace). The calling process must be
  // single-threaded (the kernel's rule for CLONE_NEWNS).
  Status enter(const ContainerProcess& process);
  // Back to the namespace we came from; a no-op when we never left.
  Status leave();

 private:
  UniqueFd home_fd_;
};

}  // namespace graft
