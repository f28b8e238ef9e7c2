// SPDX-License-Identifier: Apache-2.0
// Reads an ld.so.cache file a test wrote or a fixture built, through the
// reader graft uses (read_ldcache_fd). The product opens every cache inside
// a root it does not trust, so it has no by-path reader; tests know their
// files and open them by path.
#pragma once

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "graft/base/ldcache.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

inline Result<std::vector<LdCacheEntry>> read_ldcache_file(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) return Error{fmt::format("ld.so.cache {}: cannot open: {}", path, std::strerror(errno))};
  return read_ldcache_fd(fd.get(), path);
}

}  // namespace graft
