// SPDX-License-Identifier: Apache-2.0
// Rule modules: helpers a policy ships once for all its rule files.
// `require("name")` in a rule file (or in a module) loads the file the policy
// declared under `rule_modules` whose name is name.lua; there is no search
// path, so nothing the policy did not declare can be loaded. A module is read
// as a rule file is (trusted file, text only) and runs in the same sandbox,
// from the same safe globals, under the same instruction budget and memory
// cap. It runs once per file that requires it, in an _ENV of its own, and
// what it returns is cached for that file: so one file's changes to a module
// table stay invisible to the others, as its globals do.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <lua.hpp>

#include "policy/policy.hpp"
#include "sandbox/rule_file.hpp"

namespace graft::rules {

class RuleModules {
 public:
  struct Module {
    std::string name;  // the file name without .lua: what require() takes
    std::string path;  // absolute
    std::string chunkname;
    std::optional<std::string> text;  // read on the first require
    ChunkSource source{};             // its short_src is filled once loaded
  };

  explicit RuleModules(const std::vector<SourcedString>& declared);
  RuleModules(const RuleModules&) = delete;
  RuleModules& operator=(const RuleModules&) = delete;

  // Makes this set the one require() loads from. Runs inside a protected call.
  void install(lua_State* L);
  // Sets `require` in the _ENV table on top of the stack, for a rule file.
  // Does nothing when no set is installed.
  static void add_require(lua_State* L);

  // The declared modules; those loaded so far have a short_src.
  const std::vector<Module>& modules() const { return modules_; }

 private:
  static int require(lua_State* L);
  static void push_require(lua_State* L, RuleModules* self, int chain);
  Module* find(std::string_view name);

  std::vector<Module> modules_;
  TrustedDirs dirs_;  // the modules' directories, each walked once
};

}  // namespace graft::rules
