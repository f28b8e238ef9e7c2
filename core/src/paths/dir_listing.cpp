// SPDX-License-Identifier: Apache-2.0
// Bounded directory listings for dir_listing.hpp.
#include "paths/dir_listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>

namespace graft {

Result<DirListing> list_directory(int dir_fd, std::size_t limit, const std::string& shown) {
  int fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return make_sys_error(errno, "{}", shown);
  std::unique_ptr<DIR, int (*)(DIR*)> stream(::fdopendir(fd), &::closedir);
  if (!stream) {
    int saved = errno;
    ::close(fd);
    return make_sys_error(saved, "{}", shown);
  }
  DirListing listing;
  for (std::size_t seen = 0;; ++seen) {
    errno = 0;
    const dirent* entry = ::readdir(stream.get());
    if (entry == nullptr) {
      if (errno != 0) return make_sys_error(errno, "{}", shown);
      return listing;
    }
    if (seen == limit) {
      listing.truncated = true;
      return listing;
    }
    std::string_view name(entry->d_name);
    if (name != "." && name != "..") listing.names.emplace_back(name);
  }
}

}  // namespace graft
