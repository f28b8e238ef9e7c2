// SPDX-License-Identifier: Apache-2.0
// RuleBook: the rules registered by rule(name, [phase,] fn) while rule files
// load, in registration order. The functions stay in a registry table of the
// Lua state; the book keeps their names, phases and where they were defined.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <lua.hpp>

#include "graft/base/error.hpp"
#include "policy/origin.hpp"
#include "rules/rule_phase.hpp"

namespace graft::rules {

struct RegisteredRule {
  std::string name;
  RulePhase phase = RulePhase::restrict;
  Origin origin;  // the rule(...) call
};

class RuleBook {
 public:
  // Creates the function table and adds `rule` to every file's globals.
  // Runs inside a protected call.
  void install(lua_State* L);
  // After loading: rule() called from a rule is an error.
  void close() { open_ = false; }

  const std::vector<RegisteredRule>& rules() const { return rules_; }
  // Pushes rule i's function. Allocates nothing.
  void push_function(lua_State* L, std::size_t i) const;

 private:
  static int define(lua_State* L);
  Status add(std::string_view name, RulePhase phase, const Origin& origin);

  std::vector<RegisteredRule> rules_;
  // Each name's place in rules_: a repeated name is found without comparing
  // it to every rule before it, so a book of many rules fills in linear time.
  std::unordered_map<std::string, std::size_t> by_name_;
  int table_ref_ = LUA_NOREF;
  bool open_ = true;
};

}  // namespace graft::rules
