// SPDX-License-Identifier: Apache-2.0
// lua_case_table: a Lua case file runs once in the rules sandbox (the safe
// libraries only: no io, os, require, load) with the default limits, and
// the table it returns is turned into TOML values, so both formats go
// through the same reader and give the same errors. Lua tables with keys 1..n
// become arrays, others tables; an empty table becomes an empty array.
#include <lua.hpp>

#include "policy/policy.hpp"
#include "policy_cases/case_file.hpp"
#include "sandbox/environment.hpp"
#include "sandbox/rule_file.hpp"
#include "sandbox/sandbox.hpp"

namespace graft {
namespace {

using rules::ChunkSource;
using rules::Sandbox;

struct CaseChunk {
  ChunkSource source;
  toml::table table;
  std::string error;  // set when the returned value cannot be TOML
};

bool lua_is_sequence(lua_State* L, int index) {
  lua_Integer length = static_cast<lua_Integer>(lua_rawlen(L, index));
  lua_Integer keys = 0;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    ++keys;
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > length) {
      lua_pop(L, 1);
      return false;
    }
  }
  return keys == length;
}

// Converts the value at `index` (absolute). Raises no Lua error: every
// problem is a message in `error`, so no C++ object is skipped by a longjmp.
std::unique_ptr<toml::node> lua_to_toml(lua_State* L, int index, const std::string& key, int depth,
                                        std::string& error);

std::unique_ptr<toml::node> lua_table_to_toml(lua_State* L, int index, const std::string& key, int depth,
                                              std::string& error) {
  if (depth > 16 || !lua_checkstack(L, 4)) {
    error = key + ": nested too deeply";
    return nullptr;
  }
  if (lua_is_sequence(L, index)) {
    auto array = std::make_unique<toml::array>();
    for (lua_Integer i = 1; i <= static_cast<lua_Integer>(lua_rawlen(L, index)); ++i) {
      lua_rawgeti(L, index, i);
      auto element = lua_to_toml(L, lua_gettop(L), key + "[" + std::to_string(i - 1) + "]", depth + 1, error);
      lua_pop(L, 1);
      if (!element) return nullptr;
      array->push_back(std::move(*element));
    }
    return array;
  }
  auto table = std::make_unique<toml::table>();
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      error = key + ": mixes a list with named keys, or has a key that is not a string";
      lua_pop(L, 2);
      return nullptr;
    }
    std::string name = lua_tostring(L, -2);
    auto value = lua_to_toml(L, lua_gettop(L), key.empty() ? name : key + "." + name, depth + 1, error);
    lua_pop(L, 1);
    if (!value) {
      lua_pop(L, 1);
      return nullptr;
    }
    table->insert(name, std::move(*value));
  }
  return table;
}

std::unique_ptr<toml::node> lua_to_toml(lua_State* L, int index, const std::string& key, int depth,
                                        std::string& error) {
  switch (lua_type(L, index)) {
    case LUA_TBOOLEAN:
      return std::make_unique<toml::value<bool>>(lua_toboolean(L, index) != 0);
    case LUA_TSTRING:
      return std::make_unique<toml::value<std::string>>(lua_tostring(L, index));
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) return std::make_unique<toml::value<int64_t>>(lua_tointeger(L, index));
      error = key + ": expected an integer, got a float";
      return nullptr;
    case LUA_TTABLE:
      return lua_table_to_toml(L, index, key, depth, error);
    default:
      error = std::string(key) + ": a " + lua_typename(L, lua_type(L, index)) + " cannot be part of a case";
  }
  return nullptr;
}

int run_case_chunk(lua_State* L) {
  auto* chunk = static_cast<CaseChunk*>(lua_touserdata(L, 1));
  rules::open_safe_libraries(L);
  rules::load_text_chunk(L, chunk->source);
  rules::push_environment(L, std::string_view(chunk->source.text, chunk->source.size));
  lua_setupvalue(L, -2, 1);  // a main chunk's one upvalue is _ENV
  lua_call(L, 0, 1);
  if (!lua_istable(L, -1)) {
    chunk->error = "the file must return a table (the case), not a value of type ";
    chunk->error += lua_typename(L, lua_type(L, -1));
    return 0;
  }
  auto converted = lua_table_to_toml(L, lua_gettop(L), "", 0, chunk->error);
  if (converted && converted->is_table())
    chunk->table = std::move(*converted->as_table());
  else if (converted)
    chunk->error.clear();  // an empty or list-shaped return: read as an empty case
  return 0;
}

}  // namespace

Result<toml::table> lua_case_table(std::string_view text, const std::string& file) {
  auto sandbox = Sandbox::create(Limits{});
  if (!sandbox) return sandbox.error();
  std::string chunkname = "@" + file;
  CaseChunk chunk{ChunkSource{chunkname.c_str(), text.data(), text.size(), {}}, {}, {}};
  lua_State* L = (*sandbox)->state();
  lua_pushcfunction(L, run_case_chunk);
  lua_pushlightuserdata(L, &chunk);
  if (auto failure = (*sandbox)->call(1)) return make_error("{}", failure->message);
  if (!chunk.error.empty()) return make_error("{}: {}", file, chunk.error);
  return std::move(chunk.table);
}

}  // namespace graft
