// SPDX-License-Identifier: Apache-2.0
// A host executable copied into a sealed memfd (CVE-2024-0135): the copy is
// what runs inside the container, so nothing there can reach or modify the
// host's file through /proc/<pid>/exe, and nothing can change the copy after
// it was checked. Only static ELF executables are accepted: a dynamic one run
// inside the container root would load the image's ld.so and libraries.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::ldcache {

// Opens `path` (no symlink as the last component), requires a regular file
// owned by root and not writable by group or others, copies it into a sealed
// memfd and checks the copy is a static ELF executable for this machine.
// Returns the memfd (close-on-exec), ready for execveat(fd, "", AT_EMPTY_PATH).
Result<UniqueFd> seal_host_binary(const std::string& path);

// Seals memfd `fd` against writes, truncation, growth and further seals:
// F_SEAL_WRITE, or F_SEAL_FUTURE_WRITE when the kernel still counts a pin on
// one of its pages (EBUSY). `path` is for messages.
Status seal_memfd(int fd, const std::string& path);

// Checks that `fd` holds an ELF executable of this machine's class and
// architecture with no PT_INTERP. `path` is for messages.
Status check_static_elf(int fd, const std::string& path);

}  // namespace graft::ldcache
