// SPDX-License-Identifier: Apache-2.0
// Safe library subset, the wrappers that keep stops sticky (pcall, xpcall),
// setmetatable without finalizers, log(), and one _ENV per rule file.
#include "sandbox/environment.hpp"

#include <string_view>

#include <spdlog/spdlog.h>

#include "sandbox/guard.hpp"
#include "sandbox/place.hpp"
#include "sandbox/sandbox.hpp"

namespace graft::rules {

namespace {

// Registry keys of the template every _ENV is copied from, and of its
// flattened form (push_flat_template).
const char kTemplateKey = 0;
const char kFlatTemplateKey = 0;

// Base functions a rule may use as they are. pcall, xpcall and setmetatable
// are replaced below; the rest of base (load, dofile, ...) is left out.
constexpr const char* kBaseAllowed[] = {
    "assert", "error",  "getmetatable", "ipairs", "next",     "pairs",    "rawequal",
    "rawget", "rawlen", "rawset",       "select", "tonumber", "tostring", "type",
    "_VERSION"};

struct Library {
  const char* name;
  lua_CFunction open;
  const char* removed[3];  // fields taken out of the library table itself
};

constexpr Library kLibraries[] = {
    {LUA_STRLIBNAME, luaopen_string, {"dump", nullptr, nullptr}},
    {LUA_TABLIBNAME, luaopen_table, {nullptr, nullptr, nullptr}},
    {LUA_MATHLIBNAME, luaopen_math, {"random", "randomseed", nullptr}},
    {LUA_UTF8LIBNAME, luaopen_utf8, {nullptr, nullptr, nullptr}},
};

// Like finishpcall in lbaselib.c, but a stopped sandbox raises again.
int finish_protected(lua_State* L, int status, int extra) {
  Sandbox::of(L).after_protected_call(L, status);
  if (status != LUA_OK) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - extra;
}

int safe_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  int status = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0);
  return finish_protected(L, status, 0);
}

// A message handler runs where the error was raised. For a stop that is
// inside the count hook, where Lua disables hooks, so the budget would not
// bound the handler: a stopped sandbox passes the error by unhandled.
int rule_handler(lua_State* L) {
  if (Sandbox::of(L).stopped() != Sandbox::Stop::none) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int safe_xpcall(lua_State* L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, rule_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);
  int status = lua_pcall(L, n - 2, LUA_MULTRET, 2);
  return finish_protected(L, status, 2);
}

// A finalizer would run rule code at collection time, outside any rule,
// possibly after the evaluation: refuse metatables that carry one.
int safe_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    bool has_gc = lua_rawget(L, 2) != LUA_TNIL;
    lua_pop(L, 1);
    if (has_gc) return luaL_error(L, "__gc metamethods are not available to rules");
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// log(...): the values, tab-separated, to the debug log with the rule line.
int log_message(lua_State* L) {
  int n = lua_gettop(L);
  luaL_Buffer buffer;
  luaL_buffinit(L, &buffer);
  for (int i = 1; i <= n; ++i) {
    if (i > 1) luaL_addchar(&buffer, '\t');
    luaL_tolstring(L, i, nullptr);
    luaL_addvalue(&buffer);
  }
  luaL_pushresult(&buffer);
  size_t size = 0;
  const char* text = lua_tolstring(L, -1, &size);
  Place place;
  find_place(L, 1, place);
  Failure failure = guarded([&] {
    spdlog::debug("rule log {}:{}: {}", place.file, place.line, std::string_view(text, size));
    return ok_status();
  });
  if (failure.failed) return raise(L, failure);
  return 0;
}

// Pushes the entries of the table at `index` as one array {k1, v1, k2, v2, ...}.
void push_pairs(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  lua_Integer slot = 0;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pushvalue(L, -2);
    lua_rawseti(L, -4, ++slot);
    lua_rawseti(L, -3, ++slot);
  }
}

// Pushes a new table made from push_pairs's array at `index`, at its final
// size: growing a table key by key is most of what a copy costs.
void push_table_from_pairs(lua_State* L, int index) {
  index = lua_absindex(L, index);
  auto slots = static_cast<lua_Integer>(lua_rawlen(L, index));
  lua_createtable(L, 0, static_cast<int>(slots / 2) + 1);
  for (lua_Integer slot = 1; slot < slots; slot += 2) {
    lua_rawgeti(L, index, slot);
    lua_rawgeti(L, index, slot + 1);
    lua_rawset(L, -3);
  }
}

// The template flattened for push_environment, kept in the registry until
// add_global changes the template: {name, value, library pairs or false, ...}.
// Walking arrays is several times cheaper than lua_next over the template
// and each library table for every rule file.
void push_flat_template(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kFlatTemplateKey) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  int templ = lua_gettop(L);
  lua_newtable(L);
  lua_Integer slot = 0;
  lua_pushnil(L);
  while (lua_next(L, templ) != 0) {
    lua_pushvalue(L, -2);
    lua_rawseti(L, templ + 1, ++slot);
    lua_pushvalue(L, -1);
    lua_rawseti(L, templ + 1, ++slot);
    if (lua_type(L, -1) == LUA_TTABLE) push_pairs(L, -1);
    else lua_pushboolean(L, 0);
    lua_rawseti(L, templ + 1, ++slot);
    lua_pop(L, 1);
  }
  lua_remove(L, templ);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kFlatTemplateKey);
}

void add_base(lua_State* L, int base, int templ) {
  for (const char* name : kBaseAllowed) {
    lua_getfield(L, base, name);
    lua_setfield(L, templ, name);
  }
  lua_pushcfunction(L, safe_pcall);
  lua_setfield(L, templ, "pcall");
  lua_pushcfunction(L, safe_xpcall);
  lua_setfield(L, templ, "xpcall");
  lua_getfield(L, base, "setmetatable");
  lua_pushcclosure(L, safe_setmetatable, 1);
  lua_setfield(L, templ, "setmetatable");
  lua_pushcfunction(L, log_message);
  lua_setfield(L, templ, "log");
}

void add_libraries(lua_State* L, int templ) {
  for (const Library& library : kLibraries) {
    luaL_requiref(L, library.name, library.open, 0);
    for (const char* field : library.removed) {
      if (field == nullptr) continue;
      lua_pushnil(L);
      lua_setfield(L, -2, field);
    }
    lua_setfield(L, templ, library.name);
  }
}

// getmetatable("") must not hand out the metatable every string shares.
void lock_string_metatable(lua_State* L) {
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1) != 0) {
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

}  // namespace

void open_safe_libraries(lua_State* L) {
  // Base goes into the real global table, which no rule chunk ever sees.
  luaL_requiref(L, LUA_GNAME, luaopen_base, 0);
  int base = lua_gettop(L);
  lua_newtable(L);
  int templ = lua_gettop(L);
  add_base(L, base, templ);
  add_libraries(L, templ);
  lock_string_metatable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  lua_pop(L, 1);
}

void add_global(lua_State* L, const char* name) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  lua_insert(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kFlatTemplateKey);
}

namespace {

// Which globals a chunk compiled from `text` can ever read. In Lua 5.4 a
// chunk reaches its _ENV only through free names, which compile to
// _ENV.<name> with the name as written, or by naming _ENV or _G itself (load,
// debug and getfenv are not in the sandbox; a module has its own _ENV). So a
// text that never spells `name`, `_ENV` or `_G`, even in a comment, cannot
// tell whether `name` is there. Copying the library tables is most of what
// a rule file's _ENV costs, and most files use one library or none.
class ReachableGlobals {
 public:
  explicit ReachableGlobals(std::string_view text)
      : text_(text), names_env_(spells(text, "_G") || spells(text, "_ENV")) {}
  bool reaches(std::string_view name) const { return names_env_ || spells(text_, name); }

 private:
  static bool spells(std::string_view text, std::string_view name) {
    return text.find(name) != std::string_view::npos;
  }
  std::string_view text_;
  bool names_env_;
};

}  // namespace

void push_environment(lua_State* L, std::string_view text) {
  push_flat_template(L);
  int flat = lua_gettop(L);
  auto slots = static_cast<lua_Integer>(lua_rawlen(L, flat));
  lua_createtable(L, 0, static_cast<int>(slots / 3) + 1);  // and _G
  int env = lua_gettop(L);
  ReachableGlobals reachable(text);
  for (lua_Integer slot = 1; slot < slots; slot += 3) {
    lua_rawgeti(L, flat, slot);
    // Library tables are copied so a file cannot change another's.
    if (lua_rawgeti(L, flat, slot + 2) == LUA_TTABLE) {
      std::size_t size = 0;
      const char* name = lua_tolstring(L, -2, &size);
      if (!reachable.reaches(std::string_view(name, size))) {
        lua_pop(L, 2);
        continue;
      }
      push_table_from_pairs(L, -1);
      lua_remove(L, -2);
    } else {
      lua_pop(L, 1);
      lua_rawgeti(L, flat, slot + 1);
    }
    lua_rawset(L, env);
  }
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  lua_remove(L, flat);
}

}  // namespace graft::rules
