// SPDX-License-Identifier: Apache-2.0
// What a process holds that a leak makes grow: open fds, mount table lines,
// heap bytes in use. For tests that repeat a path many times in one process
// and compare before and after (apply_leak_test.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace graft::test {

// Entries of /proc/self/fd.
std::size_t open_fd_count();

// Lines of a mountinfo file ("/proc/self/mountinfo", "/proc/<pid>/mountinfo").
std::size_t mount_count(const std::string& mountinfo);

// Heap bytes the allocator has handed out and not had back: mallinfo2's
// uordblks + hblkhd, or under AddressSanitizer (whose allocator replaces
// glibc's) __sanitizer_get_current_allocated_bytes().
long heap_in_use();

}  // namespace graft::test
