// SPDX-License-Identifier: Apache-2.0
// A host root's paths resolved as follow_links_in_root resolves them
// (paths/paths.hpp), remembering each directory once resolved. Discovery
// resolves many files of a few directories (the driver's libraries, the
// binary directories), and following a path costs one readlink per
// component; with the directories remembered, a file costs one.
#pragma once

#include <sys/stat.h>

#include <map>
#include <optional>
#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

class RootLinks {
 public:
  explicit RootLinks(std::string root) : root_(std::move(root)) {}

  // follow_links_in_root(root, path).
  Result<std::string> follow(const std::string& path);

  // The real root-relative path of `path` (follow), `st` taken on the object
  // the kernel opened there inside the root (O_NOFOLLOW); nullopt if there
  // is none.
  std::optional<std::string> stat(const std::string& path, struct stat& st);

 private:
  std::string root_;
  UniqueFd root_fd_;                          // opened at the first stat
  std::map<std::string, std::string> dirs_;  // normalised directory -> real path
};

}  // namespace graft
