// SPDX-License-Identifier: Apache-2.0
#include "private_namespace.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace graft::e2e {

void check_call(int rc, const char* what) {
  if (rc != 0) throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

PrivateNamespace::PrivateNamespace() {
  home_namespace_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  home_cwd_ = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  try {
    check_call(home_namespace_ < 0 || home_cwd_ < 0 ? -1 : 0,
               "open /proc/self/ns/mnt and the working directory");
    check_call(::unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
    check_call(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), "make / rprivate");
  } catch (...) {
    leave();
    throw;
  }
}

PrivateNamespace::~PrivateNamespace() { leave(); }

// setns moves the root and working directory to the namespace's root, so the
// working directory is restored by fd.
void PrivateNamespace::leave() noexcept {
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

}  // namespace graft::e2e
