// The container's init process behind a pidfd, and the checks made on what
// is read about it through /proc (see container_process.hpp).
#include "apply/container_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/paths.hpp"

namespace graft {
namespace {

Result<NamespaceId> namespace_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return make_error("{}: {}", path, std::strerror(errno));
  return NamespaceId{st.st_dev, st.st_ino};
}

}  // namespace

Result<ContainerProcess> ContainerProcess::open(int pid) {
  if (pid <= 0) return make_error("container process {}: not a process id", pid);
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0)
    return make_error("container process {}: {}", pid,
                      errno == ESRCH ? "no such process (exited?)" : std::strerror(errno));
  return ContainerProcess(pid, pidfd);
}

ContainerProcess::~ContainerProcess() {
  if (pidfd_ >= 0) ::close(pidfd_);
}

// A pidfd polls readable once its process has exited, zombie or reaped;
// pidfd_send_signal(0) would still succeed on a zombie.
bool ContainerProcess::running() const {
  struct pollfd poll_fd {.fd = pidfd_, .events = POLLIN, .revents = 0};
  int ready = ::poll(&poll_fd, 1, 0);
  return ready == 0;
}

Status ContainerProcess::confirm_running(int pid, bool running, std::string_view what) {
  if (running) return ok_status();
  return make_error("container process {} exited while graft read {}", pid, what);
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

Status check_mount_namespace(int pid, NamespaceId ours, NamespaceId theirs, ApplyCaller caller) {
  if (caller == ApplyCaller::hook && ours == theirs)
    return make_error(
        "container process {} shares graft's own mount namespace, which no container does "
        "(a wrong or reused pid?): refusing to apply to the host",
        pid);
  return ok_status();
}

}  // namespace graft
