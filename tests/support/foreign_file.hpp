// SPDX-License-Identifier: Apache-2.0
// Issue 42's setting: what lies where graft writes its own output (a
// world-writable file another user planted, a symlink), and what graft's
// file must be afterwards (root's, 0644) or how it refuses (one line).
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "graft/base/unique_fd.hpp"

namespace graft::test {

// `text` at `path` (or what is there already, with no `text`), owned by
// uid and gid 1000, mode 0666: anyone may rewrite it. Needs root. Changed
// on the fd it was opened as, so the name is not looked up twice.
inline void plant_foreign_file(const std::string& path, const std::optional<std::string>& text = std::nullopt) {
  if (text) std::ofstream(path) << *text;
  UniqueFd planted(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  REQUIRE(planted.valid());
  REQUIRE(::fchown(planted.get(), 1000, 1000) == 0);
  REQUIRE(::fchmod(planted.get(), 0666) == 0);
}

// `path` is a regular file of root's, mode 0644.
inline void check_root_0644(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK((st.st_mode & 07777) == 0644);
  CHECK(st.st_uid == 0);
}

// A symlink at `path` to `target`, a file holding `text`, mode 0600.
inline void plant_link(const std::string& path, const std::string& target, const std::string& text) {
  std::ofstream(target) << text;
  REQUIRE(::chmod(target.c_str(), 0600) == 0);
  std::filesystem::create_symlink(target, path);
}

// What plant_link made is as it made it: the link, and its target's text
// and mode.
inline void check_link_untouched(const std::string& path, const std::string& target, const std::string& text) {
  CHECK(std::filesystem::is_symlink(path));
  std::stringstream held;
  held << std::ifstream(target).rdbuf();
  CHECK(held.str() == text);
  struct stat st {};
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
}

// The line graft refuses a symlink at its own output with.
inline std::string symlink_refusal(const std::string& path) {
  return path + ": is a symlink; graft writes this file itself and does not follow or replace a link there "
                "(remove it, or name the file it leads to)";
}

}  // namespace graft::test
