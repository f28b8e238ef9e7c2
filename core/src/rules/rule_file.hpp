// Rule files: read as text, loaded in text mode only, each run once in its
// own _ENV so it can register rules.
#pragma once

#include <string>

#include <lua.hpp>

#include "graft/base/error.hpp"

namespace graft::rules {

// Reads a rule file. Skips a UTF-8 BOM and a first "#" line (keeping line
// numbers) as lua does; refuses precompiled (binary) chunks.
Result<std::string> read_rule_text(const std::string& path);

// What load_rule_chunk needs, passed as light userdata.
struct ChunkSource {
  const char* chunkname;  // "@" + path
  const char* text;
  std::size_t size;
  char short_src[LUA_IDSIZE];  // filled: how Lua names this file in messages
};

// Lua C function (run protected): loads the ChunkSource at index 1 in text
// mode, gives it a fresh _ENV and runs it.
int load_rule_chunk(lua_State* L);

}  // namespace graft::rules
