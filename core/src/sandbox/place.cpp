// SPDX-License-Identifier: Apache-2.0
// Reading rule-file positions from the Lua stack without allocating.
#include "sandbox/place.hpp"

#include <cstdio>

namespace graft::rules {

Origin Place::origin() const {
  if (empty()) return Origin{};
  return Origin{file, line, 0};
}

bool find_place(lua_State* L, int level, Place& out) noexcept {
  lua_Debug ar;
  // "Sl" only reads the call info: safe even from inside the allocator.
  for (; lua_getstack(L, level, &ar) == 1; ++level) {
    if (lua_getinfo(L, "Sl", &ar) == 0) continue;
    if (ar.currentline <= 0 || ar.source == nullptr || ar.source[0] != '@') continue;
    std::snprintf(out.file, sizeof out.file, "%s", ar.source + 1);
    out.line = ar.currentline;
    return true;
  }
  out.file[0] = '\0';
  out.line = 0;
  return false;
}

}  // namespace graft::rules
