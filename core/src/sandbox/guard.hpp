// SPDX-License-Identifier: Apache-2.0
// C++ work inside Lua C functions. Lua raises errors with longjmp, which skips
// C++ destructors, and a C++ exception must not unwind through Lua's C frames.
// So a C function keeps its C++ work inside guarded(): every object that work
// creates is gone, and every exception caught, before the function raises.
#pragma once

#include <cstdio>
#include <exception>

#include <lua.hpp>

#include "graft/base/error.hpp"

namespace graft::rules {

// A failure message in plain storage, safe to hold across a longjmp.
struct Failure {
  bool failed = false;
  char text[512] = {};
};

template <typename Work>
Failure guarded(Work&& work) noexcept {
  Failure out;
  try {
    Status status = work();
    if (!status.ok()) {
      out.failed = true;
      std::snprintf(out.text, sizeof out.text, "%s", status.error().message.c_str());
    }
  } catch (const std::exception& e) {
    out.failed = true;
    std::snprintf(out.text, sizeof out.text, "internal error: %s", e.what());
  } catch (...) {
    out.failed = true;
    std::snprintf(out.text, sizeof out.text, "internal error");
  }
  return out;
}

// Raises the failure as a Lua error located at the calling rule line.
inline int raise(lua_State* L, const Failure& failure) { return luaL_error(L, "%s", failure.text); }

}  // namespace graft::rules
