// SPDX-License-Identifier: Apache-2.0
// An admin rule that hangs where the sandbox's instruction budget cannot
// see it: a Lua string pattern backtracks inside C (string.find, match,
// gmatch, gsub), so `("a"):rep(40000):find(".-.-.-b")` runs for minutes in
// one VM instruction. The policy's [limits] deadline_ms ends `graft plan`
// and `graft hook` with exit 1 and one line saying the rules did not finish,
// for every container, since rules decide what a GPU container is.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "bounded_graft.hpp"
#include "hook_harness.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

// Several times what discovery, which runs before the rules, takes here
// (sanitizer build included), so the deadline passes inside the pattern.
constexpr int kRulesDeadlineMs = 1500;
const std::string kRulesLate =
    "graft: container c9: rules did not finish within " + std::to_string(kRulesDeadlineMs) + " ms\n";

// A site policy whose one rule backtracks in a pattern for minutes.
std::string backtracking_policy(const std::string& audit = "") {
  std::string dir = host().path("/hung-rules");
  fs::create_directories(dir);
  std::string rule = dir + "/backtrack.lua";
  std::ofstream(rule) << "rule('backtrack', function(req, host, grant)\n"
                         "  local found = ('a'):rep(40000):find('.-.-.-b')\n"
                         "end)\n";
  std::string log = audit.empty() ? "" : "[audit]\nlog = \"" + audit + "\"\n";
  return write_policy("hung-rules", "",
                      "rules = [\"" + rule + "\"]\n[limits]\ndeadline_ms = " + std::to_string(kRulesDeadlineMs) +
                          "\n" + log);
}

}  // namespace

TEST_CASE("a rule backtracking in a string pattern ends graft plan at the deadline with one line",
          "[plan][hostile][deadline]") {
  auto result = testing::run_command(testing::bounded_graft({"--policy", backtracking_policy(), "plan", "--id", "c9"}));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == kRulesLate);
}

TEST_CASE("a rule backtracking in a string pattern ends the hook at the deadline with one line and an error record",
          "[hook][hostile][deadline]") {
  std::string audit = host().path("/hung-rules/audit.jsonl");
  fs::remove(audit);
  std::string bundle = write_bundle(host().path("/hung-rules/bundle"), {R"("PATH=/bin")"});
  auto result = testing::run_command(
      testing::bounded_graft({"--policy", backtracking_policy(audit), "hook", "prestart"}),
      state_json("c9", ::getpid(), bundle));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.err == kRulesLate);
  std::ifstream in(audit);
  std::string line, extra;
  REQUIRE(std::getline(in, line));
  CHECK_FALSE(std::getline(in, extra));
  auto record = nlohmann::json::parse(line);
  CHECK(record["outcome"] == "error");
  CHECK(record["error"] == "container c9: rules did not finish within " + std::to_string(kRulesDeadlineMs) + " ms");
  CHECK(record["request"]["bundle"] == bundle);
}
