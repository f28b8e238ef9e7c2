// SPDX-License-Identifier: Apache-2.0
#include "graft/base/write_all.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace graft {

Status write_all(int fd, std::string_view text, const std::string& shown, WriteCall write_call) {
  while (!text.empty()) {
    ssize_t written = write_call(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return make_sys_error(errno, "{}: write", shown);
    if (written == 0) {
      Error error = make_error("{}: write: {} (no byte written)", shown, std::strerror(EIO));
      error.code = EIO;
      return error;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return ok_status();
}

}  // namespace graft
