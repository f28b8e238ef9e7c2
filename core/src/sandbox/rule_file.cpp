// SPDX-License-Identifier: Apache-2.0
// Reading and loading one rule file.
#include "sandbox/rule_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "trust/trusted_file.hpp"
#include "sandbox/environment.hpp"
#include "sandbox/precompiled_chunks.hpp"
#include "sandbox/rule_modules.hpp"
#include "sandbox/sandbox.hpp"

namespace graft::rules {

Result<std::string> read_rule_text(const std::string& path, TrustedDirs& dirs) {
  // Trusted as the policy is (trust/trusted_file.hpp).
  auto read = read_trusted_file(path, dirs);
  if (!read) return read.error().context("rule file");
  std::string text = std::move(*read);

  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  // The newline ending a "#" line stays, so line numbers do not shift.
  std::size_t start = 0;
  if (text.starts_with("#")) {
    text.erase(0, std::min(text.find('\n'), text.size()));
    start = text.empty() ? 0 : 1;
  }
  // Lua's own test: a chunk starting with ESC is precompiled bytecode, which
  // can crash the VM when crafted. Mode "t" refuses it too; this says why.
  if (text.size() > start && text[start] == LUA_SIGNATURE[0])
    return make_error("{}: binary (precompiled) chunks are not allowed; rule files must be Lua source text",
                      path);
  return text;
}

namespace {

// A load reports errors as a status; raise them, keeping a memory error one.
int failed_load(lua_State* L, int status) {
  Sandbox::of(L).after_protected_call(L, status);
  return lua_error(L);
}

// Copies Lua's short name for the function on top of the stack (popped).
void keep_short_src(lua_State* L, ChunkSource& source) {
  lua_Debug ar;
  lua_getinfo(L, ">S", &ar);
  std::memcpy(source.short_src, ar.short_src, sizeof ar.short_src);
}

}  // namespace

void load_text_chunk(lua_State* L, ChunkSource& source) {
  // Text graft shipped, byte for byte, loads as the bytecode compiled from it
  // at build time (sandbox/precompiled_chunks.hpp); any other text compiles.
  int status = LUA_ERRSYNTAX;
  if (auto* chunk = find_precompiled(std::string_view(source.text, source.size))) {
    status = load_precompiled(L, *chunk, source.chunkname);
    if (status != LUA_OK) lua_pop(L, 1);
  }
  if (status != LUA_OK) status = luaL_loadbufferx(L, source.text, source.size, source.chunkname, "t");
  // Lua's short name for the file, so that messages can be traced back to
  // the full path: from the loaded chunk, or, when the text does not
  // compile, from an empty chunk of the same name.
  if (status == LUA_OK) {
    lua_pushvalue(L, -1);
    keep_short_src(L, source);
    return;
  }
  int named = luaL_loadbufferx(L, "", 0, source.chunkname, "t");
  if (named != LUA_OK) failed_load(L, named);
  keep_short_src(L, source);
  failed_load(L, status);
}

int load_rule_chunk(lua_State* L) {
  auto* source = static_cast<ChunkSource*>(lua_touserdata(L, 1));
  load_text_chunk(L, *source);
  push_environment(L, std::string_view(source->text, source->size));
  RuleModules::add_require(L);
  // A main chunk has exactly one upvalue, _ENV.
  lua_setupvalue(L, -2, 1);
  lua_call(L, 0, 0);
  return 0;
}

}  // namespace graft::rules
