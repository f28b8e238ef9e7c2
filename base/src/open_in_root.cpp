// SPDX-License-Identifier: Apache-2.0
// openat2 inside a root, with the one EAGAIN retry rule (open_in_root.hpp).
#include "graft/base/open_in_root.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace graft {

int open_in_root(int root_fd, const char* path, int flags) {
  if (path == nullptr) return -EINVAL;
  // O_TMPFILE includes the O_DIRECTORY bit, so it is tested whole.
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) return -EINVAL;
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags) | O_CLOEXEC;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  return retry_on_eagain([&] {
    long fd = ::syscall(SYS_openat2, root_fd, path, &how, sizeof how);
    return fd < 0 ? -errno : static_cast<int>(fd);
  });
}

}  // namespace graft
