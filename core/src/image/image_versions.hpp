// SPDX-License-Identifier: Apache-2.0
// Versions an image's file names claim, read from a directory of an
// untrusted container root: the regular files named <prefix>.<version>
// (digits and dots). The directory is opened with RESOLVE_IN_ROOT, so an
// image symlink cannot lead the lookup out of the root; entries are only
// lstat'ed, never opened, so a FIFO, a device node or a huge file of that
// name costs nothing; the listing stops after a bounded number of entries.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

struct VersionedFile {
  std::string name;                  // "libvendor.so.575.57.08"
  std::vector<unsigned long> version;  // {575, 57, 8}
};

// At most this many directory entries are looked at.
inline constexpr std::size_t kMaxImageDirEntries = 4096;

// The regular files named `prefix`.<version> in `dir` inside `root`, highest
// version first. A missing directory (or one that is not a directory) is an
// empty list; other failures are errors naming the path.
Result<std::vector<VersionedFile>> image_versioned_files(const std::string& root, const std::string& dir,
                                                         const std::string& prefix);

// "575.57.08" -> {575, 57, 8}; empty when not digits separated by dots.
std::vector<unsigned long> parse_dotted_version(std::string_view text);

}  // namespace graft
