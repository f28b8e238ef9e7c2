// SPDX-License-Identifier: Apache-2.0
// Files graft trusts with the host: the policy with its includes and
// drop-ins, the rule files, the plugins. Whoever can write one of them, or
// replace it in a directory on its path, decides what every container gets
// (and, for a plugin, runs code as root). So, as OpenSSH's StrictModes:
//   - the file is a regular file (a FIFO, device or directory is refused),
//     owned by root or by the user graft runs as, not group- or
//     world-writable;
//   - every directory from its own up to "/" is owned by root or by that
//     user and not group- or world-writable, except a root-owned sticky
//     directory such as /tmp: there nobody else can rename or remove the
//     entries below it;
//   - the path is resolved once (realpath: a symlinked policy path, or a
//     distribution's /lib -> usr/lib, is followed) and the real path is
//     walked from "/" one component at a time with O_NOFOLLOW, each directory
//     checked on the fd it was opened as, the file opened relative to the
//     last one and checked on its own fd: nothing is checked by name and
//     used by another. A link changed in between makes the walk fail.
//   - the file is opened O_NONBLOCK, so a FIFO given as the policy is
//     refused at once instead of blocking the hook before its deadline.
//   - inside a user namespace (a rootless container's hooks), an owner shown
//     as the overflow uid is taken for root when the kernel confirms the
//     namespace maps neither it nor host root; every other mapped owner is
//     refused (user_namespace.hpp, docs/security.md).
#pragma once

#include <map>
#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

// The directory `dir` (O_PATH), every directory from "/" down to it
// checked. Messages start with `what` (e.g. "plugin /x/libfoo.so").
Result<UniqueFd> open_trusted_dir(const std::string& dir, const std::string& what);

// Checks the open file `fd` (fstat): regular, owner, not group- or
// world-writable.
Status check_trusted_file(int fd, const std::string& what);

// The file `path`, opened read-only in its checked directory chain and
// checked itself. Messages start with `path`.
Result<UniqueFd> open_trusted_file(const std::string& path);

// The whole content of the trusted file `path` (at most `limit` bytes).
Result<std::string> read_trusted_file(const std::string& path, std::size_t limit = 16u << 20);

// Directories whose chain was walked and checked, by the name they were
// asked for, so that many files of one directory (an evaluation's rule
// files) cost one walk. Each is kept as the fd that was checked.
class TrustedDirs {
 public:
  // The checked directory `dir` (an fd owned here); `what` starts messages.
  Result<int> open(const std::string& dir, const std::string& what);

 private:
  std::map<std::string, UniqueFd> checked_;
};

// read_trusted_file, with the file's directory taken from `dirs`. A file
// that is itself a symlink is resolved and walked as read_trusted_file does.
Result<std::string> read_trusted_file(const std::string& path, TrustedDirs& dirs,
                                      std::size_t limit = 16u << 20);

}  // namespace graft
