// SPDX-License-Identifier: Apache-2.0
// `graft policy test` with rules that do not load (a syntax error, a
// duplicate rule name): one load error, exit 1, and one JUnit error, not a
// failed case per case file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "run_command.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"

namespace policy_test_load_error_test {

using namespace graft;
using namespace graft::testing;

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// A policy whose one site rule file is `lua`, and three cases beside it.
std::string write_suite(const fixture::TempDir& dir, const std::string& lua) {
  std::ofstream(dir.path() + "/site.lua") << lua;
  std::string policy = dir.path() + "/graft.toml";
  std::ofstream(policy) << fmt::format("include = [\"{}/nvidia/nvidia.toml\"]\nrules = [\"site.lua\"]\n",
                                       fixture::source_policy_dir());
  std::filesystem::create_directories(dir.path() + "/tests");
  for (const char* name : {"a", "b", "c"})
    std::ofstream(dir.path() + "/tests/" + name + ".toml") << "[request]\nenv = { NVIDIA_VISIBLE_DEVICES = \"0\" }\n";
  return policy;
}

void check_one_load_error(const std::string& lua, const std::string& where) {
  fixture::TempDir dir("graft-test-load-");
  std::string policy = write_suite(dir, lua);
  std::string junit = dir.path() + "/junit.xml";
  auto result = run_graft({"--policy", policy, "policy", "test", dir.path() + "/tests", "--junit", junit});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK(occurrences(result.out, "ERROR ") == 1);
  CHECK(occurrences(result.out, where) == 1);
  CHECK(occurrences(result.out, "FAIL") == 0);
  std::stringstream xml;
  xml << std::ifstream(junit).rdbuf();
  CHECK(occurrences(xml.str(), "<testcase ") == 1);
  CHECK(occurrences(xml.str(), "<error ") == 1);
  CHECK(occurrences(xml.str(), "<failure") == 0);
  CHECK_THAT(xml.str(), Catch::Contains("errors=\"1\""));
}

TEST_CASE("graft policy test reports a rule file's syntax error once, as a load error", "[policy-test]") {
  check_one_load_error("rule('x', function(req, host, grant)\n  if then end\nend)\n", "site.lua:2");
}

TEST_CASE("graft policy test reports a duplicate rule name once, as a load error", "[policy-test]") {
  check_one_load_error("rule('twice', function() end)\nrule('twice', function() end)\n", "site.lua:2");
}

}  // namespace policy_test_load_error_test
