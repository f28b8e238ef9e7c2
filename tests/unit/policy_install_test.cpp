// SPDX-License-Identifier: Apache-2.0
// `graft policy install NEW`: NEW is checked strictly where it will live,
// then renamed over the live policy as graft's own 0644 file; a check that fails
// leaves the live policy byte for byte as it was and nothing beside it.
// --offline throughout: the policy alone, the same on every machine.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "foreign_file.hpp"
#include "run_command.hpp"
#include "skip.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"

namespace policy_install_test {

using namespace graft;
using namespace graft::testing;
namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::stringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

std::string vendor_include() { return fmt::format("include = [\"{}/nvidia/nvidia.toml\"]\n", fixture::source_policy_dir()); }

std::size_t entries_in(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

CommandResult install(const std::string& live, const std::string& candidate) {
  return run_graft({"--policy", live, "policy", "install", candidate, "--offline"});
}

TEST_CASE("graft policy install leaves the live policy byte-identical when the new one fails the strict check",
          "[policy-install]") {
  fixture::TempDir etc("graft-install-etc-"), work("graft-install-work-");
  std::string live = etc.path() + "/graft.toml";
  std::string before = vendor_include() + "# the live policy\n";
  std::ofstream(live) << before;
  std::ofstream(work.path() + "/idle.lua") << "rule('never', function(req, host, grant)\n"
                                              "  if req.annotations['example.com/none'] then grant:deny('x') end\nend)\n";
  std::string candidate = work.path() + "/graft.toml";
  std::ofstream(candidate) << vendor_include() << "rules = [\"" << work.path() << "/idle.lua\"]\n";
  auto result = install(live, candidate);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("not installed, " + live + " unchanged") && Catch::Contains("--strict: idle"));
  CHECK(read_all(live) == before);
  CHECK(entries_in(etc.path()) == 1);  // no temporary file left beside it
}

TEST_CASE("graft policy install swaps a passing policy in as graft's own 0644 file, whatever the live file's mode, "
          "and says what it installed",
          "[policy-install]") {
  fixture::TempDir etc("graft-install-etc-"), work("graft-install-work-");
  std::string live = etc.path() + "/graft.toml";
  std::ofstream(live) << vendor_include();
  ::chmod(live.c_str(), 0600);
  std::string candidate = work.path() + "/graft.toml";
  std::string text = vendor_include() + "# new\n";
  std::ofstream(candidate) << text;
  auto result = install(live, candidate);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "installed " + candidate + " as " + live +
                          ": 7 rule files, 12 samples, checked strictly (--offline: not against this host)\n");
  CHECK(read_all(live) == text);
  struct stat info {};
  REQUIRE(::stat(live.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0644);
  CHECK(info.st_uid == ::geteuid());
  CHECK(entries_in(etc.path()) == 1);
}

// Issue 42: the installed policy took the owner and mode of what lay at the
// live path, so a 0666 file another user planted there stayed theirs.
TEST_CASE("graft policy install over a world-writable live policy another user owns leaves root's 0644 policy",
          "[policy-install]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to plant a file owned by another user");
  fixture::TempDir etc("graft-install-etc-"), work("graft-install-work-");
  std::string live = etc.path() + "/graft.toml";
  test::plant_foreign_file(live, vendor_include() + "# planted\n");
  std::string candidate = work.path() + "/graft.toml";
  std::ofstream(candidate) << vendor_include();
  auto result = install(live, candidate);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  test::check_root_0644(live);
  CHECK(read_all(live) == vendor_include());
}

TEST_CASE("graft policy install refuses a symlink at the live policy with one line and changes neither file",
          "[policy-install]") {
  fixture::TempDir etc("graft-install-etc-"), work("graft-install-work-");
  std::string target = work.path() + "/elsewhere.toml", live = etc.path() + "/graft.toml";
  std::string before = vendor_include() + "# elsewhere\n";
  test::plant_link(live, target, before);
  std::string candidate = work.path() + "/graft.toml";
  std::ofstream(candidate) << vendor_include();
  auto result = install(live, candidate);
  CHECK(result.exit_code == 1);
  CHECK(result.err == "graft: " + test::symlink_refusal(live) + "\n");
  test::check_link_untouched(live, target, before);
  CHECK(entries_in(etc.path()) == 1);
}

TEST_CASE("graft policy install checks relative rule paths as they resolve beside the live policy",
          "[policy-install]") {
  fixture::TempDir etc("graft-install-etc-"), work("graft-install-work-");
  std::string live = etc.path() + "/graft.toml";
  std::ofstream(live) << vendor_include();
  // site.lua exists beside the live policy only: that is where NEW will load it from.
  std::ofstream(etc.path() + "/site.lua") << "rule('acts', function(req, host, grant)\n"
                                             "  if grant:injecting() then grant:note('seen') end\nend)\n";
  std::string candidate = work.path() + "/graft.toml";
  std::ofstream(candidate) << vendor_include() << "rules = [\"site.lua\"]\n";
  auto result = install(live, candidate);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(read_all(live) == read_all(candidate));
}

}  // namespace policy_install_test
