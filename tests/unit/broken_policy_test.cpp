// SPDX-License-Identifier: Apache-2.0
// A broken site policy or rule, seen from the real `graft hook`. A policy
// whose TOML does not load decides nothing: the hook ends in exactly one line
// on stderr naming the file (and line where there is one) and exit 1, for
// every container, GPU or not. When the TOML loads but a rule file does not
// (a syntax error, a duplicate rule name, a file that raises as it loads), a
// container that asks for nothing through the policy's request channels is
// let through untouched with one warning line (engine/plain_request.hpp),
// and one that asks is refused as ever. A rule that fails while it runs
// refuses the container it runs for. The loader and the sandbox are tested
// in depth in policy_errors_test.cpp and rules_sandbox_test.cpp;
// docs/security.md maps each item to its test.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "hook_harness.hpp"
#include "rules_support.hpp"
#include "site_policy.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;
using graft::rules_test::one_rule;

namespace {

std::string dir_of(const std::string& name) {
  std::string dir = host().path("/broken-policy/" + name);
  fs::create_directories(dir);
  return dir;
}

// A container that asks for no GPU: refused while the policy's TOML is
// broken, let through while only a rule file is.
std::string plain_state() {
  static std::string bundle = write_bundle(host().path("/broken-policy/bundle"), {R"("PATH=/bin")"});
  return state_json("c9", ::getpid(), bundle);
}

// A container that asks for GPU 1 through the environment.
std::string gpu_state() {
  static std::string bundle = gpu1_bundle(host().path("/broken-policy/gpu-bundle"));
  return state_json("c10", ::getpid(), bundle);
}

testing::CommandResult hook_with_policy_file(const std::string& path) { return hook(path, plain_state()); }

// A site policy whose rules are one file holding `lua`.
std::string policy_with_rule(const std::string& name, const std::string& lua) {
  std::string dir = dir_of(name);
  std::string rule = dir + "/" + name + ".lua";
  std::ofstream(rule) << lua;
  return write_policy("rule-" + name, "", "rules = [\"" + rule + "\"]\n");
}

testing::CommandResult hook_with_rule(const std::string& name, const std::string& lua) {
  return hook(policy_with_rule(name, lua), plain_state());
}

// A rule file that does not load: the plain container passes with one
// warning naming the load error, the GPU container is refused naming it.
void check_load_error(const std::string& name, const std::string& lua, const std::string& needle) {
  std::string policy = policy_with_rule(name, lua);
  auto plain = hook(policy, plain_state());
  INFO(plain.err);
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.empty());
  CHECK(line_count(plain.err) == 1);
  CHECK_THAT(plain.err, Catch::StartsWith("graft: warning: container c9: let through untouched") &&
                            Catch::Contains("rules do not load") && Catch::Contains(needle));
  auto gpu = hook(policy, gpu_state());
  INFO(gpu.err);
  CHECK(gpu.exit_code == 1);
  CHECK(line_count(gpu.err) == 1);
  CHECK_THAT(gpu.err, Catch::StartsWith("graft: container c10: ") && Catch::Contains(needle));
}

void check_one_line(const testing::CommandResult& result, const std::string& needle) {
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: ") && Catch::Contains(needle));
}


}  // namespace

TEST_CASE("a TOML syntax error in the site policy is one line naming file and line", "[hook][hostile]") {
  std::string path = dir_of("toml") + "/graft.toml";
  std::ofstream(path) << "include = [\"nvidia\"]\n[audit\nlog = 1\n";
  check_one_line(hook_with_policy_file(path), path + ":2:");
}

TEST_CASE("a missing include is one line naming the including file", "[hook][hostile]") {
  std::string path = dir_of("include") + "/graft.toml";
  std::ofstream(path) << "include = [\"./absent.toml\"]\n";
  check_one_line(hook_with_policy_file(path), "absent.toml");
}

TEST_CASE("an include loop is one line naming the chain", "[hook][hostile]") {
  std::string dir = dir_of("loop");
  std::ofstream(dir + "/a.toml") << "include = [\"./b.toml\"]\n";
  std::ofstream(dir + "/b.toml") << "include = [\"./a.toml\"]\n";
  check_one_line(hook_with_policy_file(dir + "/a.toml"), "b.toml");
}

TEST_CASE("a missing policy file is one line naming it", "[hook][hostile]") {
  check_one_line(hook_with_policy_file(host().path("/broken-policy/absent.toml")), "absent.toml");
}

TEST_CASE("a rule that raises is one line naming the rule and line", "[hook][hostile]") {
  check_one_line(hook_with_rule("raise", one_rule("broken", "error('site rule broke')")),
                 "rule 'broken' (" + dir_of("raise") + "/raise.lua:2): site rule broke");
}

TEST_CASE("a rule that loops forever stops at the instruction budget", "[hook][hostile]") {
  auto start = std::chrono::steady_clock::now();
  auto result = hook_with_rule("spin", one_rule("broken", "while true do end"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  check_one_line(result, "instruction");
}

TEST_CASE("a rule that allocates without bound stops at the memory cap", "[hook][hostile]") {
  check_one_line(hook_with_rule("alloc", one_rule("broken", "local t = {} while true do t[#t + 1] = ('x'):rep(4096) .. #t end")),
                 "rule 'broken'");
}

TEST_CASE("a rule that recurses without bound ends in one line", "[hook][hostile]") {
  check_one_line(hook_with_rule("recurse", "local function f(n) return 1 + f(n + 1) end\n" + one_rule("broken", "f(1)")),
                 "rule 'broken'");
}

TEST_CASE("a rule reaching for io, os, require, debug, load or string.dump is one line", "[hook][hostile]") {
  for (const char* call : {"io.open('/etc/shadow')", "os.execute('id')", "require('os')", "debug.getinfo(1)",
                           "load('return 1')", "string.dump(print)"}) {
    CAPTURE(call);
    check_one_line(hook_with_rule("escape", one_rule("broken", call)), "escape.lua:2");
  }
}

TEST_CASE("a rule returning garbage is ignored, and one passing garbage to grant is one line",
          "[hook][hostile]") {
  auto returns = hook_with_rule("returns", one_rule("broken", "return {}, 42, function() end, nil"));
  INFO(returns.err);
  CHECK(returns.exit_code == 0);
  CHECK(returns.err.empty());
  check_one_line(hook_with_rule("garbage-grant", one_rule("broken", "grant:add_device({}, 'because')")), "garbage-grant.lua:2");
}

TEST_CASE("a rule file passing garbage to rule() lets a plain container through and refuses a GPU one",
          "[hook][hostile]") {
  check_load_error("garbage-rule", "rule('x', 42)\n", "garbage-rule.lua");
}

TEST_CASE("a binary rule file lets a plain container through and refuses a GPU one", "[hook][hostile]") {
  check_load_error("garbage-file", "\x1bLua garbage", "garbage-file.lua");
}

TEST_CASE("a rule file's syntax error lets a plain container through and refuses a GPU one",
          "[hook][hostile]") {
  check_load_error("syntax", "rule('x', function(req, host, grant)\n  if then end\nend)\n", "syntax.lua:2");
}

TEST_CASE("a duplicate rule name lets a plain container through and refuses a GPU one", "[hook][hostile]") {
  check_load_error("duplicate", "rule('twice', function() end)\nrule('twice', function() end)\n", "duplicate.lua:2");
}

TEST_CASE("with a broken rule file, a container with an annotation is refused", "[hook][hostile]") {
  std::string bundle = write_bundle(host().path("/broken-policy/annotated-bundle"), {R"("PATH=/bin")"},
                                    R"(,"annotations":{"example.com/tenant":"team-a"})");
  check_one_line(hook(policy_with_rule("annotated", "rule('x', 42)\n"), state_json("c11", ::getpid(), bundle)),
                 "annotated.lua");
}

TEST_CASE("an [audit] log in a missing directory is one line naming the container, audit.log, path and errno",
          "[hook][hostile]") {
  std::string log = host().path("/broken-policy/no-such-dir/audit.jsonl");
  auto result = hook(write_policy("audit-dir", "", "[audit]\nlog = \"" + log + "\"\n"), plain_state());
  check_one_line(result, "container c9: audit.log " + log + ": cannot open it to append: No such file or directory (errno 2)");
}
