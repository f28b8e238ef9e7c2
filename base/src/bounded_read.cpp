// SPDX-License-Identifier: Apache-2.0
// Capped whole-file reads (bounded_read.hpp).
#include "graft/base/bounded_read.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graft/base/unique_fd.hpp"

namespace graft {

Result<std::string> read_bounded(int fd, std::size_t limit, std::string_view name) {
  std::string data;
  char buffer[65536];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return make_sys_error(errno, "{}", name);
    if (got == 0) return data;
    if (data.size() + static_cast<std::size_t>(got) > limit)
      return make_error("{} is larger than {} bytes", name, limit);
    data.append(buffer, static_cast<std::size_t>(got));
  }
}

Result<std::string> read_file(const std::string& path, std::size_t limit, int extra_flags) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | extra_flags));
  if (!fd.valid()) return make_sys_error(errno, "{}", path);
  return read_bounded(fd.get(), limit, path);
}

}  // namespace graft
