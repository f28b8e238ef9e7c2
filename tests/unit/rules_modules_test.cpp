// SPDX-License-Identifier: Apache-2.0
// Rule modules: helpers a policy declares once (rule_modules) and each rule
// file takes with require(). They run in the rules sandbox like rule files,
// load only from the policy's declared files, and report errors at their own
// file and line.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

struct ModulePolicy {
  RuleDir dir;
  std::vector<std::string> rule_files;
  std::vector<std::string> module_files;

  ModulePolicy& rule_file(const std::string& name, const std::string& text) {
    rule_files.push_back(dir.write(name, text));
    return *this;
  }
  ModulePolicy& module(const std::string& name, const std::string& text) {
    module_files.push_back(dir.write(name, text));
    return *this;
  }
  Result<Intent> evaluate(std::uint64_t instructions = 1'000'000) const {
    Policy policy = test_policy(rule_files);
    for (const auto& file : module_files) policy.rule_modules.push_back(SourcedString{file, {}});
    policy.limits.rule_instructions = instructions;
    return evaluate_rules(test_request(), test_inventory(), policy);
  }
  std::string path(const std::string& name) const { return dir.path() + "/" + name; }
};

// A one-rule file whose body is `body`, on line 2.

const char* kShout = "local M = {}\nfunction M.shout(s) return s:upper() .. '!' end\nreturn M\n";

}  // namespace

TEST_CASE("a helper defined once in a module is visible to each rule file that requires it", "[rules]") {
  ModulePolicy policy;
  policy.module("text.lua", kShout)
      .rule_file("a.lua", "local text = require('text')\n" + one_rule("a", "grant:note(text.shout('a'))"))
      .rule_file("b.lua", "local text = require('text')\n" + one_rule("b", "grant:note(text.shout('b'))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"A!", "B!"});
}

TEST_CASE("requiring a module twice in one file gives the same value", "[rules]") {
  ModulePolicy policy;
  policy.module("text.lua", kShout)
      .rule_file("a.lua", one_rule("a", "grant:note(tostring(require('text') == require('text')))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"true"});
}

TEST_CASE("one file's change to a module table stays invisible to another file", "[rules]") {
  ModulePolicy policy;
  policy.module("text.lua", kShout)
      .rule_file("a.lua", "require('text').shout = function() return 'hijacked' end\n")
      .rule_file("b.lua", one_rule("b", "grant:note(require('text').shout('b'))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"B!"});
}

TEST_CASE("a module sees the safe globals and nothing of io, os, load, debug or package", "[rules]") {
  ModulePolicy policy;
  policy.module("probe.lua", R"(
    local found = {}
    for _, name in ipairs({"io", "os", "load", "loadfile", "dofile", "debug", "package",
                           "collectgarbage", "print", "coroutine"}) do
      if _ENV[name] ~= nil then found[#found + 1] = name end
    end
    if string.dump ~= nil then found[#found + 1] = "string.dump" end
    found[#found + 1] = type(string.upper) .. "," .. type(table.concat)
    return table.concat(found, " "))")
      .rule_file("a.lua", one_rule("a", "grant:note(require('probe'))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"function,function"});
}

TEST_CASE("a module reaching for os is an error at the module's file and line", "[rules]") {
  ModulePolicy policy;
  policy.module("escape.lua", "local M = {}\nM.ran = os.execute('id')\nreturn M\n")
      .rule_file("a.lua", "local escape = require('escape')\n");
  CHECK(error_of(policy.evaluate()) ==
        policy.path("escape.lua") + ":2: attempt to index a nil value (global 'os')");
}

TEST_CASE("require loads nothing the policy did not declare as a module", "[rules]") {
  const char* names[] = {"os", "io", "debug", "undeclared", "../undeclared", "/etc/passwd", "text.lua"};
  for (const char* name : names) {
    CAPTURE(name);
    ModulePolicy policy;
    policy.module("text.lua", kShout)
        .rule_file("undeclared.lua", "return {}\n")  // beside the rule, but not declared
        .rule_file("a.lua", one_rule("a", std::string("require('") + name + "')"));
    CHECK(error_of(policy.evaluate()) == "rule 'a' (" + policy.path("a.lua") + ":2): module '" + name +
                                             "' is not declared in the policy's rule_modules");
  }
}

TEST_CASE("an error raised in a module function names the module's file and line", "[rules]") {
  ModulePolicy policy;
  policy.module("strict.lua", "local M = {}\nfunction M.check(v)\n  error('bad value ' .. v)\nend\nreturn M\n")
      .rule_file("a.lua", "local strict = require('strict')\n" + one_rule("a", "strict.check('x')"));
  CHECK(error_of(policy.evaluate()) == "rule 'a' (" + policy.path("strict.lua") + ":3): bad value x");
}

TEST_CASE("a syntax error in a module names the module's file and line", "[rules]") {
  ModulePolicy policy;
  policy.module("broken.lua", "local M = {}\nfunction M.f(\nreturn M\n")
      .rule_file("a.lua", "local broken = require('broken')\n");
  CHECK_THAT(error_of(policy.evaluate()), Catch::StartsWith(policy.path("broken.lua") + ":3: "));
}

TEST_CASE("modules that require each other in a cycle are an error naming the cycle", "[rules]") {
  ModulePolicy policy;
  policy.module("one.lua", "return require('two')\n")
      .module("two.lua", "return require('one')\n")
      .rule_file("a.lua", "local one = require('one')\n");
  CHECK(error_of(policy.evaluate()) ==
        policy.path("two.lua") + ":1: module cycle: one -> two -> one");
}

TEST_CASE("a module may require another module", "[rules]") {
  ModulePolicy policy;
  policy.module("text.lua", kShout)
      .module("loud.lua", "local text = require('text')\nreturn {twice = function(s) return text.shout(text.shout(s)) end}\n")
      .rule_file("a.lua", one_rule("a", "grant:note(require('loud').twice('a'))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"A!!"});
}

TEST_CASE("a precompiled module is refused", "[rules]") {
  ModulePolicy policy;
  policy.module("binary.lua", "\x1bLua garbage").rule_file("a.lua", "local binary = require('binary')\n");
  CHECK_THAT(error_of(policy.evaluate()),
             Catch::Contains("binary (precompiled) chunks are not allowed") &&
                 Catch::Contains(policy.path("binary.lua")));
}

TEST_CASE("a module's endless loop is stopped by the instruction budget", "[rules]") {
  ModulePolicy policy;
  policy.module("spin.lua", "while true do end\n").rule_file("a.lua", "local spin = require('spin')\n");
  CHECK_THAT(error_of(policy.evaluate(100'000)),
             Catch::StartsWith(policy.path("spin.lua") + ":1: instruction budget of 100000 exceeded"));
}

TEST_CASE("a module that returns nothing requires as true", "[rules]") {
  ModulePolicy policy;
  policy.module("quiet.lua", "local x = 1\n")
      .rule_file("a.lua", one_rule("a", "grant:note(tostring(require('quiet')))"));
  auto result = policy.evaluate();
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"true"});
}
