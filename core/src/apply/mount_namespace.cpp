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
namespace {

bool same_namespace(int pid) {
  struct stat ours {}, theirs {};
  std::string path = "/proc/" + std::to_string(pid) + "/ns/mnt";
  return ::stat("/proc/self/ns/mnt", &ours) == 0 && ::stat(path.c_str(), &theirs) == 0 &&
         ours.st_dev == theirs.st_dev && ours.st_ino == theirs.st_ino;
}

}  // namespace

MountNamespaceVisit::~MountNamespaceVisit() { (void)leave(); }

Status MountNamespaceVisit::leave() {
  if (home_fd_ < 0) return ok_status();
  int left = ::setns(home_fd_, CLONE_NEWNS);
  int saved = errno;
  ::close(home_fd_);
  home_fd_ = -1;
  if (left != 0) return make_error("cannot return to graft's mount namespace: {}", std::strerror(saved));
  if (::chdir("/") != 0) return make_error("chdir / after setns: {}", std::strerror(errno));
  return ok_status();
}

Status MountNamespaceVisit::enter(int pid) {
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0)
    return make_error("container process {}: {}", pid,
                      errno == ESRCH ? "no such process (exited?)" : std::strerror(errno));
  if (same_namespace(pid)) {
    ::close(pidfd);
    return ok_status();
  }
  home_fd_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  if (home_fd_ < 0) {
    int saved = errno;
    ::close(pidfd);
    return make_error("cannot open graft's own mount namespace: {}", std::strerror(saved));
  }
  int entered = ::setns(pidfd, CLONE_NEWNS);
  int saved = errno;
  ::close(pidfd);
  if (entered != 0)
    return make_error("cannot enter the mount namespace of process {}: {}", pid,
                      std::strerror(saved));
  // Our cwd still points into the old namespace; leave it.
  if (::chdir("/") != 0) return make_error("chdir / after setns: {}", std::strerror(errno));
  return ok_status();
}

}  // namespace graft
