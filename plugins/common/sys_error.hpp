// SPDX-License-Identifier: Apache-2.0
// Errors from failed system calls, worded one way across the plugins:
// "<syscall> <path>: <strerror>", where <path> is the container or host path
// the call was about (the loader prefixes the action kind and target). The
// errno and the step (the call's name, a literal or a mount_step.hpp name)
// are kept beside the message, so a caller tells failures apart by value.
#pragma once

#include <string_view>

#include "graft/base/error.hpp"

namespace graft::plugin {

inline Error sys_error(StepName step, std::string_view path, int err) {
  Error error = make_sys_error(err, "{} {}", step.text(), path);
  error.step = step;
  return error;
}

// The same, where the message says more than the step's name ("fsconfig
// size=1m" for the step "fsconfig").
inline Error sys_error(StepName step, std::string_view call, std::string_view path, int err) {
  Error error = make_sys_error(err, "{} {}", call, path);
  error.step = step;
  return error;
}

}  // namespace graft::plugin
