// SPDX-License-Identifier: Apache-2.0
// Opening a path inside a root directory with the kernel keeping the lookup
// there: openat2 RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS from an fd of the
// root, so "..", absolute symlinks and /proc magic links cannot leave it.
// Used for container roots (the host service plugins get as resolve_in_root)
// and for driver roots (core's open_in_host_root).
#pragma once

#include <cerrno>

namespace graft {

// How often a lookup that openat2 answers with EAGAIN is made before the
// EAGAIN is returned.
inline constexpr int kResolveAttempts = 16;

// Runs `lookup` (a new fd or -errno) until it answers anything but -EAGAIN,
// at most kResolveAttempts times. openat2 answers EAGAIN when a rename or
// mount anywhere on the host happened during a ".." step of a
// RESOLVE_IN_ROOT lookup: the kernel could not prove the walk stayed in the
// root and opened nothing. Any rename counts, so a busy host hits this with
// a harmless image that has a "../" symlink; openat2(2) advises trying
// again. Bounded, so an image renaming in a loop gets a refusal, never a
// stall.
template <class Lookup>
int retry_on_eagain(Lookup&& lookup) {
  int fd = -EAGAIN;
  for (int attempt = 0; attempt < kResolveAttempts && fd == -EAGAIN; ++attempt) fd = lookup();
  return fd;
}

// openat2(root_fd, path, flags | O_CLOEXEC, RESOLVE_IN_ROOT |
// RESOLVE_NO_MAGICLINKS) under retry_on_eagain: a new fd, or -errno.
// O_CREAT and O_TMPFILE are refused (-EINVAL): no mode is passed, and
// without one the kernel would create files with mode 0.
int open_in_root(int root_fd, const char* path, int flags);

}  // namespace graft
