// SPDX-License-Identifier: Apache-2.0
// Rule files and rule modules: read as text, loaded in text mode only, each
// run in its own _ENV (rule files once, to register rules; modules once per
// file that requires them, sandbox/rule_modules.hpp).
#pragma once

#include <string>

#include <lua.hpp>

#include "trust/trusted_file.hpp"
#include "graft/base/error.hpp"

namespace graft::rules {

// Reads a rule file or module (trusted as the policy is), its directory's
// chain checked once per `dirs`. Skips a UTF-8 BOM and a first "#" line
// (keeping line numbers) as lua does; refuses precompiled (binary) chunks.
Result<std::string> read_rule_text(const std::string& path, TrustedDirs& dirs);

// What load_rule_chunk needs, passed as light userdata.
struct ChunkSource {
  const char* chunkname;  // "@" + path
  const char* text;
  std::size_t size;
  char short_src[LUA_IDSIZE];  // filled: how Lua names this file in messages
};

// Compiles `source` in text mode and pushes the function, filling
// source.short_src (so even a syntax error can be traced to the full path).
// Raises on failure, keeping a memory error one. For Lua C functions.
void load_text_chunk(lua_State* L, ChunkSource& source);

// Lua C function (run protected): loads the ChunkSource at index 1 in text
// mode, gives it a fresh _ENV (with `require`) and runs it.
int load_rule_chunk(lua_State* L);

}  // namespace graft::rules
