// SPDX-License-Identifier: Apache-2.0
// What a plugin reads about the container's init through /proc/<pid>/...
// belongs to that process only if it still runs once the bytes are in hand:
// a pid can be reused the moment its process exits, a pidfd cannot. The host
// holds the pidfd (graft_apply_context.pidfd, ABI 1.2); a plugin reads, then
// confirms through it (graft_base's confirm_running), with the one function
// here.
#pragma once

#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "graft/plugin.h"

namespace graft::plugin {

// context.pid when the host's context has it, else 0 (unknown).
int pid_of(const graft_apply_context& context);

// context.pidfd when the host's context has it (ABI 1.2), else -1.
int pidfd_of(const graft_apply_context& context);

// The bytes of /proc/<pid>/<name> (at most 1 MiB), confirmed with pidfd.
// `what` names the file in the error ("its cgroup").
Result<std::string> read_container_proc(int pidfd, int pid, const std::string& name,
                                        std::string_view what);

}  // namespace graft::plugin
