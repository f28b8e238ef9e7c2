// SPDX-License-Identifier: Apache-2.0
// Path arithmetic for host roots and container roots. Host roots are trusted
// (the admin configured them); container roots are not, so lookups inside a
// rootfs go through the kernel's RESOLVE_IN_ROOT.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

// "/run/driver" + "/usr/lib" -> "/run/driver/usr/lib"; root "/" leaves path as is.
std::string join_root(std::string_view root, std::string_view path);

// Lexically normalises an absolute path: collapses "//", "/./" and "x/.."
// without going above "/".
std::string normalize_path(std::string_view path);

std::string dirname_of(std::string_view path);
std::string basename_of(std::string_view path);

// Follows symlinks of `path` as if `root` were "/": absolute link targets
// restart at root, ".." never leaves it. Returns the root-relative result
// ("/usr/lib/x/libfoo.so.1.2"). Fails on loops (more than 40 links).
Result<std::string> follow_links_in_root(const std::string& root, const std::string& path);

// follow_links_in_root from a prefix already resolved: `done` is the real
// root-relative path of a directory ("/" or "/usr/lib"), `rest` the
// normalised components that follow it ("/libfoo.so.1").
Result<std::string> follow_links_from(const std::string& root, std::string done, std::string rest);

// Whether `path` exists inside the (untrusted) `root`, resolved by the kernel
// with RESOLVE_IN_ROOT so image symlinks cannot point the check elsewhere.
bool exists_in_root(const std::string& root, const std::string& path);

// Opens `path` inside the host root `root` (a driver root) with
// graft_base's open_in_root from an fd of `root`: absolute symlinks in the
// driver root resolve inside it, not against the host's "/". Returns a new
// fd or -errno.
int open_in_host_root(const std::string& root, const std::string& path, int flags);

}  // namespace graft
