// SPDX-License-Identifier: Apache-2.0
// Finding a program on PATH as graft-runtime does when it hands a container
// to the real runtime, so `graft policy check` judges [runtime] path by the
// same rule the shim runs by.
#pragma once

#include <string>

#include "graft/base/error.hpp"

namespace graft {

// A regular file this process may execute.
bool is_executable_file(const std::string& path);

// Where `name` is: itself when it holds a '/', else the first directory of
// `path_env` (colon-separated; only absolute entries, so neither an empty
// entry nor "." finds one in the current directory; the usual system
// directories when `path_env` is null) where `is_executable` says so.
Result<std::string> find_on_path(const std::string& name, const char* path_env,
                                 bool (*is_executable)(const std::string&) = is_executable_file);

}  // namespace graft
