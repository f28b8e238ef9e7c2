// SPDX-License-Identifier: Apache-2.0
// Reading a whole file or fd into memory with a cap. Whatever graft reads
// whole (procfs files, the OCI state, config.json, an ld.so.cache, a policy)
// may be written by someone else, so every such read has a limit, and its
// errors name the file and the limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

// Everything `fd` yields until end of file, at most `limit` bytes; EINTR is
// retried. `name` starts every message: "<name>: <strerror>",
// "<name> is larger than <limit> bytes". The caller keeps the fd.
Result<std::string> read_bounded(int fd, std::size_t limit, std::string_view name);

// Opens `path` (O_RDONLY | O_CLOEXEC | O_NOCTTY | `extra_flags`, e.g.
// O_NOFOLLOW) and reads it with read_bounded, naming it by its path.
Result<std::string> read_file(const std::string& path, std::size_t limit, int extra_flags = 0);

}  // namespace graft
