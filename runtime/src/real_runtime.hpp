// SPDX-License-Identifier: Apache-2.0
// The runtime graft-runtime hands every command to ([runtime] path: runc
// unless the policy names another), and the hand-over itself: execve, so
// the engine waits on the real runtime's process and gets its exit status,
// with no graft process left in between.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft::runtime {

// Where `name` is: itself when it holds a '/', else the first directory of
// `path_env` (colon-separated; only absolute entries, so neither an empty
// entry nor "." finds one in the current directory; the usual system
// directories when `path_env` is null) where `is_executable` says so.
Result<std::string> find_on_path(const std::string& name, const char* path_env,
                                 bool (*is_executable)(const std::string&));

// find_on_path with the real PATH, refusing graft-runtime itself (a runtime
// that calls itself would never end).
Result<std::string> find_real_runtime(const std::string& name);

// Replaces this process with the runtime at `path`, argv[0] being `path`
// (crun, for one, reads its argv[0]), then `args`, in this environment.
// Returns only when execve failed.
Error exec_real_runtime(const std::string& path, const std::vector<std::string>& args);

}  // namespace graft::runtime
