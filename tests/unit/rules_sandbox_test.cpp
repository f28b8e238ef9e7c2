// SPDX-License-Identifier: Apache-2.0
// The rules sandbox: no way out to the host, hard limits that rule code
// cannot swallow, read-only views, and no state shared between files or
// between evaluations.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

// A one-rule file whose body is `body`, on line 2.

}  // namespace

TEST_CASE("a rule reaching for a removed library gets an error naming the rule and line", "[rules]") {
  const std::pair<const char*, const char*> cases[] = {
      {"io.open('/etc/passwd')", "attempt to index a nil value (global 'io')"},
      {"os.execute('id')", "attempt to index a nil value (global 'os')"},
      {"require('os')", "module 'os' is not declared in the policy's rule_modules"},
      {"load('return 1')", "attempt to call a nil value (global 'load')"},
      {"loadstring('return 1')", "attempt to call a nil value (global 'loadstring')"},
      {"dofile('/etc/passwd')", "attempt to call a nil value (global 'dofile')"},
      {"loadfile('/etc/passwd')", "attempt to call a nil value (global 'loadfile')"},
      {"collectgarbage()", "attempt to call a nil value (global 'collectgarbage')"},
      {"print('x')", "attempt to call a nil value (global 'print')"},
      {"string.dump(function() end)", "attempt to call a nil value (field 'dump')"},
      {"('').dump(function() end)", "attempt to call a nil value (field 'dump')"},
      {"debug.getinfo(1)", "attempt to index a nil value (global 'debug')"},
      {"coroutine.create(print)", "attempt to index a nil value (global 'coroutine')"},
      {"package.loadlib('x', 'y')", "attempt to index a nil value (global 'package')"},
      {"math.random()", "attempt to call a nil value (field 'random')"},
  };
  RuleDir dir;
  for (const auto& [call, message] : cases) {
    CAPTURE(call);
    auto result = evaluate_files(dir, {{"escape.lua", one_rule("escape", call)}});
    CHECK(error_of(result) == "rule 'escape' (" + dir.path() + "/escape.lua:2): " + message);
  }
}

TEST_CASE("getmetatable on a string does not hand out the shared string metatable", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"meta.lua", one_rule("meta", R"(
    local mt = getmetatable("")
    grant:note(tostring(mt))
    if type(mt) == "table" then mt.__index = {} end)")},
                                     {"after.lua", one_rule("after", "grant:note(('abc'):upper())")}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"false", "ABC"});
}

TEST_CASE("an infinite loop hits the instruction budget", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"spin.lua", one_rule("spin", "while true do end")}});
  CHECK(error_of(result) ==
        "rule 'spin' (" + dir.path() + "/spin.lua:2): instruction budget of 1000000 exceeded");
}

TEST_CASE("an infinite loop inside pcall still ends the evaluation with the budget error", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"spin.lua", one_rule("spin", R"(local ok = pcall(function() while true do end end)
    grant:note("survived " .. tostring(ok)))")}});
  CHECK(error_of(result) ==
        "rule 'spin' (" + dir.path() + "/spin.lua:2): instruction budget of 1000000 exceeded");
}

TEST_CASE("an infinite loop inside xpcall with a handler still hits the budget", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"spin.lua", one_rule("spin", R"(xpcall(function() while true do end end,
      function(e) while true do end end)
    grant:note("survived"))")}});
  CHECK(error_of(result) ==
        "rule 'spin' (" + dir.path() + "/spin.lua:2): instruction budget of 1000000 exceeded");
}

TEST_CASE("the instruction budget also bounds a rule file's top level", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"top.lua", "local x = 0\nwhile true do x = x + 1 end\n"}});
  CHECK(error_of(result) == dir.path() + "/top.lua:2: instruction budget of 1000000 exceeded");
}

TEST_CASE("unbounded allocation hits the memory cap", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(
      dir, {{"hog.lua", one_rule("hog", "local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end")}});
  CHECK(error_of(result) ==
        "rule 'hog' (" + dir.path() + "/hog.lua:2): memory limit (16777216 bytes) exceeded");
}

TEST_CASE("unbounded allocation inside pcall still ends the evaluation with the memory error", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"hog.lua", one_rule("hog", R"(local ok, e = pcall(function()
      local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end end)
    grant:note("survived " .. tostring(e)))")}});
  CHECK(error_of(result) ==
        "rule 'hog' (" + dir.path() + "/hog.lua:3): memory limit (16777216 bytes) exceeded");
}

TEST_CASE("one huge allocation is refused by the memory cap", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"rep.lua", one_rule("rep", "local s = string.rep('x', 1e9)")}});
  CHECK(error_of(result) ==
        "rule 'rep' (" + dir.path() + "/rep.lua:2): memory limit (16777216 bytes) exceeded");
}

TEST_CASE("unbounded recursion ends in a clean error naming the rule", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(
      dir, {{"deep.lua", one_rule("deep", "local function f(n) return 1 + f(n + 1) end\nf(1)")}});
  std::string message = error_of(result);
  CHECK_THAT(message, Catch::StartsWith("rule 'deep' (" + dir.path() + "/deep.lua:"));
  bool clean = message.find("stack overflow") != std::string::npos ||
               message.find("memory limit (16777216 bytes) exceeded") != std::string::npos;
  CHECK(clean);
}

TEST_CASE("writing to a read-only view is an error", "[rules]") {
  const std::pair<const char*, const char*> cases[] = {
      {"req.env.X = 1", "request is read-only"},
      {"req.privileged = true", "request is read-only"},
      {"req.mounts[1].options[1] = 'rw'", "request is read-only"},
      {"host.gpus[1].minor = 9", "host is read-only"},
      {"host.gpus = {}", "host is read-only"},
      {"policy.data.leases['team-z'] = {1}", "policy is read-only"},
      {"table.insert(policy.capabilities, 'display')", "policy is read-only"},
      {"grant.add_device = nil", "grant is read-only (use its methods)"},
  };
  RuleDir dir;
  for (const auto& [write, message] : cases) {
    CAPTURE(write);
    auto result = evaluate_files(dir, {{"write.lua", one_rule("write", write)}});
    CHECK(error_of(result) == "rule 'write' (" + dir.path() + "/write.lua:2): " + message);
  }
}

TEST_CASE("rawset and setmetatable on a view do not change what the next rule sees", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"tamper.lua", one_rule("tamper", R"(
    grant:note(tostring(pcall(rawset, req.env, "X", "1")))
    grant:note(tostring(pcall(rawset, req, "privileged", true)))
    grant:note(tostring(pcall(setmetatable, req, {})))
    grant:note(tostring(getmetatable(req))))")},
                                     {"read.lua", one_rule("read", R"(
    grant:note(tostring(req.env.X) .. " " .. tostring(req.privileged)))")}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"false", "false", "false", "read-only", "nil false"});
}

TEST_CASE("a binary chunk is refused", "[rules]") {
  RuleDir dir;
  std::string bytecode("\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08", 15);
  auto result = evaluate_files(dir, {{"compiled.lua", bytecode}});
  CHECK(error_of(result) == dir.path() +
                                "/compiled.lua: binary (precompiled) chunks are not allowed; rule files "
                                "must be Lua source text");
  auto after_comment = evaluate_files(dir, {{"hashbang.lua", "#!/usr/bin/lua\n" + bytecode}});
  CHECK_THAT(error_of(after_comment), Catch::Contains("binary (precompiled) chunks are not allowed"));
}

TEST_CASE("a syntax error names the file and line", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"broken.lua", "rule('x', function() end)\nlocal = 3\n"}});
  CHECK(error_of(result) == dir.path() + "/broken.lua:2: <name> expected near '='");
}

// Lua shortens a long chunk name to "...<its tail>" in messages; graft names
// the whole path instead, whether the file failed to compile or to run.
const std::string kLongName = "a-rule-file-whose-name-is-long-enough-that-lua-shortens-it.lua";

TEST_CASE("a syntax error in a file with a long path names the whole path and line", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{kLongName, "rule('x', function() end)\nlocal = 3\n"}});
  CHECK(error_of(result) == dir.path() + "/" + kLongName + ":2: <name> expected near '='");
}

TEST_CASE("an error raised by a file with a long path names the whole path and line", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{kLongName, "local x = 1\nerror('here')\n"}});
  CHECK(error_of(result) == dir.path() + "/" + kLongName + ":2: here");
}

TEST_CASE("a first line starting with # is skipped and line numbers stay right", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"hash.lua", "#!/usr/bin/env lua\nerror('here')\n"}});
  CHECK(error_of(result) == dir.path() + "/hash.lua:2: here");
}

TEST_CASE("one rule file's globals are invisible to another", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"a.lua", "shared = 'a'\nstring.upper = nil\nrule('a', function() end)\n"},
                                     {"b.lua", one_rule("b", R"(
    grant:note(tostring(shared))
    grant:note(tostring(string.upper ~= nil))
    grant:note(("x"):upper()))")}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"nil", "true", "X"});
}

TEST_CASE("a file reaching its libraries by a computed name through _G or _ENV finds each of them", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"g.lua", one_rule("g", R"(
    local names = {"str" .. "ing", "ta" .. "ble", "ma" .. "th", "ut" .. "f8"}
    for _, name in ipairs(names) do grant:note(type(_G[name])) end
    grant:note(tostring(_G[names[3]].floor(2.5))))")},
                                     {"env.lua", one_rule("env", R"(
    local seen = 0
    for _, value in pairs(_ENV) do if type(value) == "table" then seen = seen + 1 end end
    grant:note(tostring(seen)))")}});
  REQUIRE(result.ok());
  // env.lua counts the four libraries and _G, its own _ENV.
  CHECK(result->request_notes ==
        std::vector<std::string>{"table", "table", "table", "table", "2", "5"});
}

TEST_CASE("a library changed through a computed name stays invisible to another file", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"a.lua", "_G['ma' .. 'th'].floor = nil\nrule('a', function() end)\n"},
                                     {"b.lua", one_rule("b", "grant:note(tostring(_G['ma' .. 'th'].floor(2.5)))")}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"2"});
}

TEST_CASE("a global set during one evaluation is gone in the next", "[rules]") {
  RuleDir dir;
  std::string file = dir.write("count.lua", one_rule("count", R"(seen = (seen or 0) + 1
    grant:note(tostring(seen)))"));
  Policy policy = test_policy({file});
  for (int run = 0; run < 2; ++run) {
    auto result = evaluate_rules(test_request(), test_inventory(), policy);
    REQUIRE(result.ok());
    CHECK(result->request_notes == std::vector<std::string>{"1"});
  }
}

TEST_CASE("a metatable with a finalizer is refused", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"gc.lua", one_rule("gc", "setmetatable({}, {__gc = function() end})")}});
  CHECK(error_of(result) ==
        "rule 'gc' (" + dir.path() + "/gc.lua:2): __gc metamethods are not available to rules");
}

TEST_CASE("an error raised by a rule names the rule and the line", "[rules]") {
  RuleDir dir;
  auto plain = evaluate_files(dir, {{"fail.lua", one_rule("fails", "error('boom')")}});
  CHECK(error_of(plain) == "rule 'fails' (" + dir.path() + "/fail.lua:2): boom");
  auto table = evaluate_files(dir, {{"fail.lua", one_rule("fails", "error({})")}});
  CHECK(error_of(table) == "rule 'fails' (" + dir.path() + "/fail.lua:2): (error object is a table value)");
}

TEST_CASE("log() accepts any values without failing", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"log.lua", one_rule("log", "log('checking', 1, nil, req)")}});
  CHECK(result.ok());
}

TEST_CASE("the process stays healthy after faulty rules", "[rules]") {
  RuleDir dir;
  const char* faulty[] = {
      "while true do end",
      "pcall(function() while true do end end)",
      "local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end",
      "pcall(function() local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end end)",
      "local function f() return 1 + f() end f()",
      "req.env.X = 1",
      "io.open('/etc/passwd')",
      "grant:deny('no')",
  };
  for (const char* body : faulty) {
    CAPTURE(body);
    auto result = evaluate_files(dir, {{"bad.lua", one_rule("bad", body)}});
    CHECK((!result.ok() || result->refusal.has_value()));
  }
  auto good = evaluate_files(dir, {{"good.lua", one_rule("good", "grant:add_device(0, 'fine')")}});
  REQUIRE(good.ok());
  REQUIRE(good->devices.size() == 1);
  CHECK(good->devices[0].reason.text == "fine");
}

TEST_CASE("a to-be-closed handler cannot outlast the instruction budget", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"close.lua", one_rule("close", R"(local guard <close> = setmetatable({}, {__close = function() while true do end end})
    while true do end)")}});
  CHECK_THAT(error_of(result), Catch::StartsWith("rule 'close' (" + dir.path() + "/close.lua:"));
  CHECK_THAT(error_of(result), Catch::EndsWith("instruction budget of 1000000 exceeded"));
}

TEST_CASE("a memory limit too small for the sandbox itself is a clean error", "[rules]") {
  RuleDir dir;
  Policy policy = test_policy({dir.write("ok.lua", "rule('ok', function() end)\n")});
  policy.limits.rule_memory_bytes = 8192;
  auto result = evaluate_rules(test_request(), test_inventory(), policy);
  CHECK_THAT(error_of(result), Catch::Contains("memory limit (8192 bytes)"));
}
