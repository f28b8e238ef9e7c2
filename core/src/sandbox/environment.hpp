// SPDX-License-Identifier: Apache-2.0
// The globals a rule file sees. Only base (without load, loadstring, dofile,
// loadfile, collectgarbage, print), string (without dump), table, math
// (without random: a plan must be reproducible) and utf8 are opened; io, os,
// package, debug and coroutine never are. `require` is graft's own, for the
// policy's declared modules only (sandbox/rule_modules.hpp). Every file gets its
// own _ENV holding fresh copies of these, so a file's globals (and any change
// it makes to `string` or `table`) stay invisible to the others.
#pragma once

#include <string_view>

#include <lua.hpp>

namespace graft::rules {

// Opens the safe libraries and keeps their template in the registry. Locks
// the shared string metatable. Runs inside a protected call.
void open_safe_libraries(lua_State* L);

// Adds the value on top of the stack (popped) to every later _ENV as `name`.
void add_global(lua_State* L, const char* name);

// Pushes a new _ENV table for the chunk compiled from `text`. A library
// table the chunk cannot reach is left out rather than copied: see
// ReachableGlobals in environment.cpp.
void push_environment(lua_State* L, std::string_view text);

}  // namespace graft::rules
