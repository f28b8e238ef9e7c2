// SPDX-License-Identifier: Apache-2.0
// Whether the process behind a pidfd still runs. What graft or a plugin
// reads under /proc/<pid>/ belongs to the container's init only if that
// process still runs once the bytes are in hand: a pid can be reused the
// moment its process exits, a pidfd cannot.
#pragma once

#include <string_view>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

// pidfd_open(pid): refused when the process has already exited ("container
// process <pid>: no such process (exited?)").
Result<UniqueFd> open_pidfd(int pid);

// False once the pidfd's process has exited (zombie or reaped).
bool process_running(int pidfd);

// Refuses when the process behind `pidfd` has exited: "container process
// <pid> exited while graft read <what>".
Status confirm_running(int pidfd, int pid, std::string_view what);

}  // namespace graft
