// SPDX-License-Identifier: Apache-2.0
#include "process_usage.hpp"

#include <dirent.h>

#include <cstddef>
#include <fstream>

#if defined(__SANITIZE_ADDRESS__)
// libasan exports it; GCC ships no <sanitizer/allocator_interface.h> (clang does).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#else
#include <malloc.h>
#endif

namespace graft::test {

std::size_t open_fd_count() {
  std::size_t count = 0;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    while (const dirent* entry = ::readdir(dir))
      if (entry->d_name[0] != '.') ++count;
    ::closedir(dir);
  }
  return count;  // includes the descriptor opendir held while counting
}

std::size_t mount_count(const std::string& mountinfo) {
  std::ifstream in(mountinfo);
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);) ++count;
  return count;
}

long heap_in_use() {
#if defined(__SANITIZE_ADDRESS__)
  return static_cast<long>(__sanitizer_get_current_allocated_bytes());
#else
  struct mallinfo2 info = ::mallinfo2();
  return static_cast<long>(info.uordblks + info.hblkhd);
#endif
}

}  // namespace graft::test
