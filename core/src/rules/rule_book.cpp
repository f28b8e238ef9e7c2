// SPDX-License-Identifier: Apache-2.0
// rule(name, [phase,] fn): registering rules while their files load.
#include "rules/rule_book.hpp"

#include <string>
#include <vector>

#include "graft/base/did_you_mean.hpp"
#include "sandbox/environment.hpp"
#include "sandbox/guard.hpp"
#include "sandbox/place.hpp"

namespace graft::rules {

void RuleBook::install(lua_State* L) {
  lua_newtable(L);
  table_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushlightuserdata(L, this);
  lua_pushcclosure(L, &RuleBook::define, 1);
  add_global(L, "rule");
}

void RuleBook::push_function(lua_State* L, std::size_t i) const {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table_ref_);
  lua_rawgeti(L, -1, static_cast<lua_Integer>(i + 1));
  lua_remove(L, -2);
}

Status RuleBook::add(std::string_view name, RulePhase phase, const Origin& origin) {
  // Everything that can run out of memory comes before the name is taken, so
  // that a failure (which a rule file may catch with pcall) leaves both as they were.
  RegisteredRule rule{std::string(name), phase, origin};
  if (rules_.size() == rules_.capacity()) rules_.reserve(2 * rules_.size() + 1);
  auto [known, added] = by_name_.try_emplace(rule.name, rules_.size());
  if (!added)
    return make_error("rule '{}' is already defined at {}", name, rules_[known->second].origin.full());
  rules_.push_back(std::move(rule));  // into the room reserved above: cannot throw
  return ok_status();
}

namespace {

// The optional second argument; a misspelt phase is an error, never the
// default. The suggestion is C++ work: inside guarded(), gone before Lua raises.
RulePhase check_phase(lua_State* L, int arg) {
  const char* name = luaL_checkstring(L, arg);
  if (auto phase = phase_named(name)) return *phase;
  Failure failure = guarded([&]() -> Status {
    std::vector<std::string_view> names;
    for (RulePhase phase : kRulePhases) names.push_back(phase_name(phase));
    return make_error("rule phase '{}' is not one of request, restrict, derive, check{}", name,
                      did_you_mean(name, names));
  });
  raise(L, failure);
  return RulePhase::restrict;  // not reached: raise does not return
}

}  // namespace

int RuleBook::define(lua_State* L) {
  auto* book = static_cast<RuleBook*>(lua_touserdata(L, lua_upvalueindex(1)));
  size_t size = 0;
  const char* name = luaL_checklstring(L, 1, &size);
  const bool has_phase = lua_type(L, 2) == LUA_TSTRING;
  const RulePhase phase = has_phase ? check_phase(L, 2) : RulePhase::restrict;
  const int function_arg = has_phase ? 3 : 2;
  luaL_checktype(L, function_arg, LUA_TFUNCTION);
  if (!book->open_) return luaL_error(L, "rule() can only be called while rule files load");
  if (size == 0) return luaL_argerror(L, 1, "rule name is empty");
  // Store the function first: if that runs out of memory, the book is unchanged.
  lua_rawgeti(L, LUA_REGISTRYINDEX, book->table_ref_);
  lua_pushvalue(L, function_arg);
  lua_rawseti(L, -2, static_cast<lua_Integer>(book->rules_.size() + 1));
  Place place;
  find_place(L, 1, place);
  Failure failure = guarded([&] { return book->add(std::string_view(name, size), phase, place.origin()); });
  if (failure.failed) return raise(L, failure);
  return 0;
}

}  // namespace graft::rules
