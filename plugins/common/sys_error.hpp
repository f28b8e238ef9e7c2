// SPDX-License-Identifier: Apache-2.0
// Errors from failed system calls, worded one way across the plugins:
// "<syscall> <path>: <strerror>", where <path> is the container or host path
// the call was about (the loader prefixes the action kind and target).
#pragma once

#include <cstring>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft::plugin {

inline Error sys_error(std::string_view call, std::string_view path, int err) {
  return make_error("{} {}: {}", call, path, std::strerror(err));
}

}  // namespace graft::plugin
