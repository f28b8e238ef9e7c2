// SPDX-License-Identifier: Apache-2.0
// require(): loading a policy's declared rule modules into the sandbox.
#include "sandbox/rule_modules.hpp"

#include "sandbox/environment.hpp"
#include "sandbox/guard.hpp"

namespace graft::rules {
namespace {

// Registry key of the installed RuleModules.
const char kModulesKey = 0;

// Upvalues of each require closure.
constexpr int kSelf = 1;
constexpr int kLoaded = 2;  // name -> value, for the file (or module) it belongs to
constexpr int kChain = 3;   // the names of the modules being loaded around it, outermost first

// Raises when `name` is already being loaded around this require: a cycle.
void refuse_cycle(lua_State* L, int name) {
  int chain = lua_upvalueindex(kChain);
  lua_Integer length = static_cast<lua_Integer>(lua_rawlen(L, chain));
  for (lua_Integer i = 1; i <= length; ++i) {
    lua_rawgeti(L, chain, i);
    bool same = lua_rawequal(L, -1, name) != 0;
    lua_pop(L, 1);
    if (!same) continue;
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    for (lua_Integer j = i; j <= length; ++j) {
      lua_rawgeti(L, chain, j);
      luaL_addvalue(&buffer);
      luaL_addstring(&buffer, " -> ");
    }
    lua_pushvalue(L, name);
    luaL_addvalue(&buffer);
    luaL_pushresult(&buffer);
    luaL_error(L, "module cycle: %s", lua_tostring(L, -1));
  }
}

// Pushes the chain of a module's own require: this one's, then `name`.
void push_longer_chain(lua_State* L, int name) {
  int chain = lua_upvalueindex(kChain);
  lua_Integer length = static_cast<lua_Integer>(lua_rawlen(L, chain));
  lua_createtable(L, static_cast<int>(length) + 1, 0);
  for (lua_Integer i = 1; i <= length; ++i) {
    lua_rawgeti(L, chain, i);
    lua_rawseti(L, -2, i);
  }
  lua_pushvalue(L, name);
  lua_rawseti(L, -2, length + 1);
}

}  // namespace

RuleModules::RuleModules(const std::vector<SourcedString>& declared) {
  modules_.reserve(declared.size());
  for (const SourcedString& file : declared)
    modules_.push_back(Module{rule_module_name(file.value), file.value, "@" + file.value, {}, {}});
}

void RuleModules::install(lua_State* L) {
  lua_pushlightuserdata(L, this);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kModulesKey);
}

void RuleModules::push_require(lua_State* L, RuleModules* self, int chain) {
  chain = lua_absindex(L, chain);
  lua_pushlightuserdata(L, self);
  lua_newtable(L);
  lua_pushvalue(L, chain);
  lua_pushcclosure(L, &RuleModules::require, 3);
}

void RuleModules::add_require(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kModulesKey) != LUA_TLIGHTUSERDATA) {
    lua_pop(L, 1);
    return;
  }
  auto* self = static_cast<RuleModules*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  lua_newtable(L);  // a rule file: no module is being loaded around it
  push_require(L, self, -1);
  lua_setfield(L, -3, "require");
  lua_pop(L, 1);
}

RuleModules::Module* RuleModules::find(std::string_view name) {
  for (Module& module : modules_)
    if (module.name == name) return &module;
  return nullptr;
}

int RuleModules::require(lua_State* L) {
  size_t size = 0;
  const char* name = luaL_checklstring(L, 1, &size);
  lua_settop(L, 1);
  lua_pushvalue(L, 1);
  if (lua_rawget(L, lua_upvalueindex(kLoaded)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  auto* self = static_cast<RuleModules*>(lua_touserdata(L, lua_upvalueindex(kSelf)));
  Module* module = self->find(std::string_view(name, size));
  if (module == nullptr)
    return luaL_error(L, "module '%s' is not declared in the policy's rule_modules", name);
  refuse_cycle(L, 1);
  if (!module->text) {
    Failure failure = guarded([&] {
      Result<std::string> text = read_rule_text(module->path, self->dirs_);
      if (!text) return Status(text.error());
      module->text = std::move(*text);
      module->source = ChunkSource{module->chunkname.c_str(), module->text->data(),
                                   module->text->size(), {}};
      return ok_status();
    });
    if (failure.failed) return raise(L, failure);
  }
  load_text_chunk(L, module->source);  // 2: the module's main chunk
  push_environment(L, *module->text);  // 3: its _ENV
  push_longer_chain(L, 1);
  push_require(L, self, -1);
  lua_setfield(L, 3, "require");
  lua_pop(L, 1);
  lua_setupvalue(L, 2, 1);  // a main chunk has exactly one upvalue, _ENV
  lua_call(L, 0, 1);
  if (lua_isnil(L, 2)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);  // as Lua's require: a module that returns nothing is true
  }
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, lua_upvalueindex(kLoaded));
  return 1;
}

}  // namespace graft::rules
