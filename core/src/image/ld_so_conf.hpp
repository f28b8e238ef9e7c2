// SPDX-License-Identifier: Apache-2.0
// An image's /etc/ld.so.conf, read as glibc's ldconfig reads it: one
// directory per line, `#` comments, `include` lines whose glob patterns
// (relative to the including file's directory) name more files, read in
// sorted order. The image is hostile: the files are opened inside its root
// (image_file.hpp), and their size, the include depth, the number of files,
// listed names and directories looked at are all bounded; past a bound the
// walk stops as if the files named nothing more.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace graft {

inline constexpr std::size_t kMaxLdSoConfBytes = 64u << 10;  // per file
inline constexpr int kMaxLdSoConfDepth = 4;                  // nested includes
inline constexpr std::size_t kMaxLdSoConfFiles = 64;         // files read in all
inline constexpr std::size_t kMaxLdSoConfDirs = 256;         // directories offered
inline constexpr std::size_t kMaxLdSoConfListing = 1024;     // names per include directory

struct LdSoConfLine {
  bool include = false;  // an include pattern, else a directory
  std::string value;     // as written, trailing '/' and an old "=TYPE" suffix removed
};

// The directory and include lines of one file's text, in order; `hwcap`
// lines and blank ones left out. Pure.
std::vector<LdSoConfLine> parse_ld_so_conf(std::string_view text);

struct LdSoConfDir {
  std::string dir;   // lexically normalised
  std::string file;  // the file that names it, as the image sees it
};

// The first directory, in the loader's order, that /etc/ld.so.conf in the
// root `root_fd` holds (or a file it includes) names and `accept` takes.
// Unreadable files (absent, not regular, too large) name nothing.
std::optional<LdSoConfDir> first_ld_so_conf_dir(int root_fd,
                                                const std::function<bool(const std::string&)>& accept);

}  // namespace graft
