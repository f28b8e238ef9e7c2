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
#include "graft/base/executable_path.hpp"

namespace graft::runtime {

// PATH look-up, shared with `graft policy check` (graft/base/executable_path.hpp).
using graft::find_on_path;

// find_on_path with the real PATH, refusing graft-runtime itself (a runtime
// that calls itself would never end) and a file graft would not trust as a
// plugin (graft/engine/trusted_path.hpp: owned by root or this user, not group- or
// world-writable, in directories only they can write).
Result<std::string> find_real_runtime(const std::string& name);

// Replaces this process with the runtime at `path`, argv[0] being `path`
// (crun, for one, reads its argv[0]), then `args`, in this environment.
// Returns only when execve failed.
Error exec_real_runtime(const std::string& path, const std::vector<std::string>& args);

}  // namespace graft::runtime
