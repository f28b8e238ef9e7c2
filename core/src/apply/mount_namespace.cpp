// SPDX-License-Identifier: Apache-2.0
#include "apply/mount_namespace.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace graft {

MountNamespaceVisit::~MountNamespaceVisit() { (void)leave(); }

Status MountNamespaceVisit::leave() {
  if (!home_fd_.valid()) return ok_status();
  int left = ::setns(home_fd_.get(), CLONE_NEWNS);
  int saved = errno;
  home_fd_.reset();
  if (left != 0) return make_sys_error(saved, "cannot return to graft's mount namespace");
  if (::chdir("/") != 0) return make_sys_error(errno, "chdir / after setns");
  return ok_status();
}

// Always setns, even into what looks like our own namespace: the check
// reads /proc, the setns goes through the pidfd, and only the pidfd is sure
// to name the container's process.
Status MountNamespaceVisit::enter(const ContainerProcess& process) {
  if (auto allowed = check_not_own_mount_namespace(process); !allowed) return allowed;
  home_fd_ = UniqueFd(::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC));
  if (!home_fd_.valid())
    return make_sys_error(errno, "cannot open graft's own mount namespace");
  if (::setns(process.pidfd(), CLONE_NEWNS) != 0) {
    int saved = errno;
    home_fd_.reset();
    return make_sys_error(saved, "cannot enter the mount namespace of process {}", process.pid());
  }
  // Our cwd still points into the old namespace; leave it.
  if (::chdir("/") != 0) return make_sys_error(errno, "chdir / after setns");
  return ok_status();
}

}  // namespace graft
