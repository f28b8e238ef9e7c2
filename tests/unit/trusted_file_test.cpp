// SPDX-License-Identifier: Apache-2.0
// Trusted files (core/src/trust/trusted_file.hpp) as docs/security.md states
// them: the policy, its includes and drop-ins, rule files and plugins are
// regular files owned by root (or by the user graft runs as), not group- or
// world-writable, below directories nobody else can write; a FIFO given as
// the policy fails at once instead of hanging the hook.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bounded_graft.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "policy/policy.hpp"
#include "policy_support.hpp"
#include "rules_support.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

using namespace graft;
using graft::policy_test::PolicyFiles;
using graft::policy_test::load_error;
namespace fs = std::filesystem;

namespace {

const std::string kPolicy = "[host]\ndriver_root = \"/\"\n";


// Another user than us and root, for files we chown away.
constexpr uid_t kStranger = 4242;

// The error of evaluating rules from `files`, in order.
std::string rule_files_error(const std::vector<std::string>& files) {
  return graft::rules_test::error_of(evaluate_rules(graft::rules_test::test_request(),
                                                    graft::rules_test::test_inventory(),
                                                    graft::rules_test::test_policy(files)));
}

}  // namespace

TEST_CASE("A policy in a checked directory chain loads", "[policy][trusted]") {
  PolicyFiles files;
  CHECK(load_policy(files.write("graft.toml", kPolicy), PolicySearch{}).ok());
}

TEST_CASE("A group-writable policy is refused, naming it and its mode", "[policy][trusted]") {
  PolicyFiles files;
  std::string path = files.write("graft.toml", kPolicy);
  REQUIRE(::chmod(path.c_str(), 0664) == 0);
  CHECK(load_error(path) == path + ": the file is group- or world-writable (mode 664)");
}

TEST_CASE("A policy owned by another user is refused", "[policy][trusted]") {
  if (::geteuid() != 0) {
    GRAFT_SKIP("chown to another user needs root");
  }
  PolicyFiles files;
  std::string path = files.write("graft.toml", kPolicy);
  REQUIRE(::chown(path.c_str(), kStranger, kStranger) == 0);
  CHECK(load_error(path) == path + ": owned by uid 4242, neither root nor us");
}

TEST_CASE("A policy in a world-writable directory without the sticky bit is refused",
          "[policy][trusted]") {
  PolicyFiles files;
  std::string path = files.write("site/graft.toml", kPolicy);
  REQUIRE(::chmod(files.path("site").c_str(), 0777) == 0);
  CHECK_THAT(load_error(path),
             Catch::Contains("its directory " + fs::canonical(files.path("site")).string() +
                             " is group- or world-writable (mode 777)"));
}

TEST_CASE("A directory anyone can write, even sticky, is refused unless root owns it",
          "[policy][trusted]") {
  if (::geteuid() != 0) {
    GRAFT_SKIP("chown to another user needs root");
  }
  PolicyFiles files;
  std::string path = files.write("site/graft.toml", kPolicy);
  REQUIRE(::chmod(files.path("site").c_str(), 01777) == 0);
  CHECK(load_policy(path, PolicySearch{}).ok());  // root-owned and sticky, as /tmp
  REQUIRE(::chown(files.path("site").c_str(), kStranger, kStranger) == 0);
  CHECK_THAT(load_error(path), Catch::Contains("is owned by uid 4242, neither root nor us"));
}

TEST_CASE("An include that is world-writable is refused", "[policy][trusted]") {
  PolicyFiles files;
  std::string base = files.write("base.toml", kPolicy);
  std::string top = files.write("graft.toml", "include = [\"base.toml\"]\n");
  REQUIRE(::chmod(base.c_str(), 0646) == 0);
  CHECK_THAT(load_error(top), Catch::Contains("base.toml: the file is group- or world-writable"));
}

TEST_CASE("A policy given as a symlink is followed, and its target is what is checked",
          "[policy][trusted]") {
  PolicyFiles files;
  std::string real = files.write("real.toml", kPolicy);
  std::string link = files.path("link.toml");
  REQUIRE(::symlink(real.c_str(), link.c_str()) == 0);
  CHECK(load_policy(link, PolicySearch{}).ok());
  REQUIRE(::chmod(real.c_str(), 0666) == 0);
  CHECK_THAT(load_error(link), Catch::Contains("the file is group- or world-writable"));
}

TEST_CASE("A world-writable rule file is refused, naming it", "[rules][trusted]") {
  graft::rules_test::RuleDir dir;
  std::string path = dir.write("r.lua", "rule('x', function(req, host, grant) end)\n");
  REQUIRE(::chmod(path.c_str(), 0666) == 0);
  CHECK(rule_files_error({path}) ==
        "rule file: " + path + ": the file is group- or world-writable (mode 666)");
}

TEST_CASE("A world-writable rule file is refused even when a file before it in its directory loaded",
          "[rules][trusted]") {
  graft::rules_test::RuleDir dir;
  std::string first = dir.write("a.lua", "rule('a', function(req, host, grant) end)\n");
  std::string second = dir.write("b.lua", "rule('b', function(req, host, grant) end)\n");
  REQUIRE(::chmod(second.c_str(), 0666) == 0);
  CHECK(rule_files_error({first, second}) ==
        "rule file: " + second + ": the file is group- or world-writable (mode 666)");
}

TEST_CASE("A rule file that is a symlink is checked where it points, not in its own directory",
          "[rules][trusted]") {
  graft::rules_test::RuleDir dir;
  std::string first = dir.write("a.lua", "rule('a', function(req, host, grant) end)\n");
  fixture::TempDir open_dir("graft-rules-open-");
  REQUIRE(::chmod(open_dir.path().c_str(), 0777) == 0);  // writable by anyone, not sticky
  std::string target = open_dir.path() + "/b.lua";
  std::ofstream(target) << "rule('b', function(req, host, grant) end)\n";
  std::string link = dir.path() + "/b.lua";
  REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
  CHECK_THAT(rule_files_error({first, link}),
             Catch::Contains("is group- or world-writable (mode 777)"));
}

TEST_CASE("A plugin whose directory's parent is group-writable is refused", "[plugins][trusted]") {
  fixture::TempDir temp("graft-plugin-parent-");
  fs::path dir = fs::path(temp.path()) / "lib" / "plugins";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms(0755));
  fs::copy_file(fs::path(GRAFT_TEST_PLUGIN_DIR) / "libgood.so", dir / "libgood.so");
  fs::permissions(dir / "libgood.so", fs::perms(0755));
  fs::permissions(dir.parent_path(), fs::perms(0775));
  auto loaded = load_plugin(dir.string(), "good");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message,
             Catch::Contains("its directory " + fs::canonical(dir.parent_path()).string() +
                             " is group- or world-writable (mode 775)"));
}

TEST_CASE("a FIFO given as the policy fails at once with one line, not a hang",
          "[hook][policy][trusted][deadline]") {
  fixture::TempDir dir("graft-fifo-");
  std::string fifo = dir.path() + "/graft.toml";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  auto start = std::chrono::steady_clock::now();
  auto result = testing::run_command(testing::bounded_graft({"--policy", fifo, "hook", "prestart"}),
                                     "");
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(result.exit_code == 1);
  CHECK(result.err == "graft: " + fifo +
                          ": not a regular file (symlinks, FIFOs and devices are refused)\n");
  CHECK(seconds < 10);
}
