// SPDX-License-Identifier: Apache-2.0
// Finding and vetting a plugin file before anything of it runs: dlopen runs
// the plugin's constructors, so every check on the file has to happen first,
// on the very inode that is then loaded (opened O_PATH, loaded via
// /proc/self/fd/N, so a rename between check and load changes nothing).
#pragma once

#include <string>
#include <string_view>

#include "trust/trusted_file.hpp"
#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

// "devices" -> "libdevices.so": what CMake's MODULE libraries are called.
std::string plugin_file_name(std::string_view name);

// Whether `name` is a plain plugin name: no '/', not "." or "..", no "..",
// not empty, no NUL.
bool is_plain_plugin_name(std::string_view name);

// Opens dir/lib<name>.so O_PATH|O_NOFOLLOW after checking the name, the
// file and every directory from `dir` up to "/" (trust/trusted_file.hpp): a
// regular file (not a symlink), owned by root or by us, not group- or
// world-writable, in a chain of directories nobody else can write. The chain
// is walked once per `dirs`: every plugin of one directory checks it once.
Result<UniqueFd> open_plugin_file(TrustedDirs& dirs, const std::string& dir,
                                  const std::string& name);

}  // namespace graft
