// SPDX-License-Identifier: Apache-2.0
// A position in a rule file, read from the Lua call stack. Plain storage,
// because it is taken inside Lua callbacks (the allocator, the count hook,
// the error handler) where nothing may allocate or throw.
#pragma once

#include <lua.hpp>

#include "policy/origin.hpp"

namespace graft::rules {

struct Place {
  char file[4096] = {};
  int line = 0;

  bool empty() const { return line <= 0; }
  Origin origin() const;
};

// The innermost rule-file position at stack `level` or above (0 = the
// running function). Leaves `out` empty when no rule code is on the stack.
bool find_place(lua_State* L, int level, Place& out) noexcept;

}  // namespace graft::rules
