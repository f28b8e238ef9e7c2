// SPDX-License-Identifier: Apache-2.0
// The container's init process behind a pidfd, and the checks made on what
// is read about it through /proc (see container_process.hpp).
#include "apply/container_process.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "graft/base/bounded_read.hpp"

namespace graft {
namespace {

Result<NamespaceId> namespace_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return make_sys_error(errno, "{}", path);
  return NamespaceId{st.st_dev, st.st_ino};
}

}  // namespace

Result<ContainerProcess> ContainerProcess::open(int pid) {
  auto pidfd = open_pidfd(pid);
  if (!pidfd) return pidfd.error();
  return ContainerProcess(pid, std::move(*pidfd));
}

Result<std::string> ContainerProcess::read_proc(const std::string& name,
                                                std::string_view what) const {
  // A /proc file of a process is far smaller than 1 MiB.
  return confirmed(what,
                   [&] { return read_file("/proc/" + std::to_string(pid_) + "/" + name, 1u << 20); });
}

Result<NamespaceId> ContainerProcess::mount_namespace() const {
  return confirmed("its mount namespace",
                   [&] { return namespace_of("/proc/" + std::to_string(pid_) + "/ns/mnt"); });
}

Result<NamespaceId> own_mount_namespace() { return namespace_of("/proc/self/ns/mnt"); }

Status check_mount_namespace(int pid, NamespaceId ours, NamespaceId theirs) {
  if (ours == theirs)
    return make_error(
        "container process {} shares graft's own mount namespace, which no container does "
        "(a wrong or reused pid?): refusing to apply to the host",
        pid);
  return ok_status();
}

Status check_not_own_mount_namespace(const ContainerProcess& process) {
  auto ours = own_mount_namespace();
  if (!ours) return ours.error();
  auto theirs = process.mount_namespace();
  if (!theirs) return theirs.error();
  return check_mount_namespace(process.pid(), *ours, *theirs);
}

}  // namespace graft
