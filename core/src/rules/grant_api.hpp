// SPDX-License-Identifier: Apache-2.0
// GrantApi: the `grant` object rules receive, a userdata whose methods call
// Grant. Every method records the calling rule line as its Reason origin,
// read from the Lua stack in C (not through the debug library).
#pragma once

#include <lua.hpp>

#include "rules/grant.hpp"

namespace graft::rules {

// Creates the grant metatable. Runs inside a protected call.
void register_grant_api(lua_State* L);
// Pushes a grant object bound to `grant`, which must outlive the Lua state's use of it.
void push_grant(lua_State* L, Grant& grant);

}  // namespace graft::rules
