#include "private_tmpfs.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace graft::e2e {
namespace {

void check(int rc, const std::string& what) {
  if (rc != 0) throw std::runtime_error(what + ": " + std::strerror(errno));
}

}  // namespace

PrivateTmpfs::PrivateTmpfs(unsigned long flags) {
  home_namespace_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  home_cwd_ = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  try {
    check(home_namespace_ < 0 || home_cwd_ < 0 ? -1 : 0, "open /proc/self/ns/mnt and the working directory");
    check(::unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
    // Private first, so neither this mount nor any the containers make reaches the host.
    check(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), "make / rprivate");
    check(::mount("tmpfs", path().c_str(), "tmpfs", flags, "size=256m,mode=755"), "mount tmpfs on " + path());
  } catch (...) {
    leave();
    throw;
  }
}

PrivateTmpfs::~PrivateTmpfs() {
  (void)::umount2(path().c_str(), MNT_DETACH);
  leave();
}

// setns moves the root and working directory to the namespace's root, so the
// working directory is restored by fd.
void PrivateTmpfs::leave() noexcept {
  if (home_namespace_ >= 0) {
    (void)::setns(home_namespace_, CLONE_NEWNS);
    ::close(home_namespace_);
    home_namespace_ = -1;
  }
  if (home_cwd_ >= 0) {
    (void)::fchdir(home_cwd_);
    ::close(home_cwd_);
    home_cwd_ = -1;
  }
}

std::string PrivateTmpfs::tmp_subdir() const { return path().substr(path().rfind('/') + 1); }

std::string PrivateTmpfs::mount_options() const {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point, options;
    fields >> id >> parent >> device >> root >> point >> options;
    if (point == path()) return options;
  }
  return "";
}

}  // namespace graft::e2e
