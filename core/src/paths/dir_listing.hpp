// SPDX-License-Identifier: Apache-2.0
// Bounded directory listings: the names in a directory held by fd, at most
// a given count, so a directory an attacker (an image) or a broken host
// filled is never read whole. Used for image directories
// (image_versions.hpp) and host library directories (library_dirs.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

struct DirListing {
  std::vector<std::string> names;  // in readdir order, "." and ".." left out
  bool truncated = false;          // more entries than the limit; the rest not read
};

// The names in the directory `dir_fd` refers to (an O_PATH fd will do: the
// directory is reopened as "." through it, never looked up by name again).
// `shown` names it in errors.
Result<DirListing> list_directory(int dir_fd, std::size_t limit, const std::string& shown);

}  // namespace graft
