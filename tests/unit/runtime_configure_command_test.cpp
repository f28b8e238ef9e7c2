// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure` as an admin runs it: the files it writes or
// would write (--dry-run), what a second run and --remove do, and the one
// line it prints when it cannot.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "fixture_files.hpp"
#include "foreign_file.hpp"
#include "run_command.hpp"
#include "runtime_config/runtime_entry.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using graft::fixture::read_file;
using graft::fixture::TempDir;
using graft::fixture::write_file;
using graft::testing::CommandResult;
using graft::testing::run_graft;

namespace {

const std::string kAdminDaemonJson = "{\n  \"log-driver\": \"journald\",\n  \"storage-driver\": \"overlay2\"\n}\n";

// Any executable stands in for graft-runtime: the command only names it.
CommandResult configure_runtime(const std::string& runtime, const std::string& config,
                                std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"runtime", "configure", "--runtime", runtime, "--config", config,
                                "--runtime-path", "/bin/true"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_graft(args);
}

struct stat file_status(const std::string& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info;
}

}  // namespace

TEST_CASE("graft runtime configure --dry-run prints the unified diff and changes nothing", "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string daemon_json = dir.path() + "/daemon.json";
  write_file(daemon_json, kAdminDaemonJson);
  auto run = configure_runtime("docker", daemon_json, {"--dry-run"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::StartsWith("--- " + daemon_json + "\n+++ " + daemon_json + "\n@@ "));
  CHECK_THAT(run.out, Catch::Contains("+  \"runtimes\": {") && Catch::Contains("+      \"path\": \"/bin/true\""));
  CHECK_THAT(run.err, Catch::Contains("would be edited"));
  CHECK(read_file(daemon_json) == kAdminDaemonJson);
}

TEST_CASE("graft runtime configure run twice changes the file once and then says nothing changed",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string daemon_json = dir.path() + "/daemon.json";
  write_file(daemon_json, kAdminDaemonJson);
  REQUIRE(configure_runtime("docker", daemon_json).exit_code == 0);
  auto first = file_status(daemon_json);
  auto second = configure_runtime("docker", daemon_json);
  REQUIRE(second.exit_code == 0);
  CHECK_THAT(second.err, Catch::Contains("already set up for graft; nothing to change"));
  CHECK(file_status(daemon_json).st_ino == first.st_ino);  // not even rewritten
  auto dry = configure_runtime("docker", daemon_json, {"--dry-run"});
  CHECK(dry.out.empty());
}

TEST_CASE("graft runtime configure --remove restores daemon.json byte for byte with its mode and owner",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string daemon_json = dir.path() + "/daemon.json";
  write_file(daemon_json, kAdminDaemonJson, 0600);
  // Another owner than the one running graft, where this test may give one.
  uid_t owner = ::geteuid() == 0 ? 65534 : ::geteuid();
  REQUIRE(::chown(daemon_json.c_str(), owner, owner == 65534 ? 65534 : ::getegid()) == 0);
  REQUIRE(configure_runtime("docker", daemon_json, {"--set-as-default"}).exit_code == 0);
  CHECK((file_status(daemon_json).st_mode & 07777) == 0600);
  CHECK(file_status(daemon_json).st_uid == owner);
  auto removed = configure_runtime("docker", daemon_json, {"--remove"});
  INFO(removed.err);
  REQUIRE(removed.exit_code == 0);
  CHECK(read_file(daemon_json) == kAdminDaemonJson);
  CHECK((file_status(daemon_json).st_mode & 07777) == 0600);
  CHECK(file_status(daemon_json).st_uid == owner);
}

TEST_CASE("graft runtime configure on a malformed daemon.json is one line naming the file, and writes nothing",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string daemon_json = dir.path() + "/daemon.json";
  write_file(daemon_json, "{\"runtimes\": \n");
  auto run = configure_runtime("docker", daemon_json);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::StartsWith("graft: " + daemon_json + ": not valid JSON"));
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(read_file(daemon_json) == "{\"runtimes\": \n");
  CHECK(std::filesystem::directory_iterator(dir.path())->path() == daemon_json);  // no temp file left
}

TEST_CASE("graft runtime configure edits the file an admin's symlinked daemon.json leads to, keeping the link",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string target = dir.path() + "/site-daemon.json";
  std::string link = dir.path() + "/daemon.json";
  write_file(target, kAdminDaemonJson);
  REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
  auto run = configure_runtime("docker", link);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.err, Catch::Contains(link + " -> " + target));
  CHECK(S_ISLNK(file_status(link).st_mode));
  CHECK_THAT(read_file(target), Catch::Contains("\"graft\""));
}

TEST_CASE("graft runtime configure refuses a symlink where it writes its own drop-in", "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  write_file(dir.path() + "/elsewhere", "");
  std::string drop_in = dir.path() + "/99-graft.conf";
  REQUIRE(::symlink((dir.path() + "/elsewhere").c_str(), drop_in.c_str()) == 0);
  auto run = configure_runtime("crio", dir.path());
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("a symlink where graft writes its own file"));
  CHECK(read_file(dir.path() + "/elsewhere").empty());
}

// Issue 42: graft's drop-in kept the owner and mode of the file it replaced,
// so one another user could write stayed so, and it names a root runtime.
TEST_CASE("graft runtime configure makes its drop-in root's 0644 file even over a world-writable one another user owns",
          "[runtime-configure]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to plant a file owned by another user");
  TempDir dir("graft-rtcfg-");
  std::string drop_in = dir.path() + "/99-graft.conf";
  graft::test::plant_foreign_file(drop_in,
                                  std::string(graft::runtime_config::kWrittenByGraft) + "\n# an older body\n");
  auto run = configure_runtime("crio", dir.path());
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(read_file(drop_in), Catch::Contains("runtime_path = \"/bin/true\""));
  graft::test::check_root_0644(drop_in);
}

TEST_CASE("graft runtime configure --runtime crio writes 99-graft.conf in the directory given, --remove deletes it",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string conf_d = dir.path() + "/crio.conf.d";
  auto run = configure_runtime("crio", conf_d + "/");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(read_file(conf_d + "/99-graft.conf"), Catch::Contains("runtime_path = \"/bin/true\""));
  REQUIRE(configure_runtime("crio", conf_d, {"--remove"}).exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(conf_d + "/99-graft.conf"));
}

TEST_CASE("graft runtime configure --runtime containerd round-trips a config.toml byte for byte",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  std::string config = dir.path() + "/config.toml";
  std::string original = "# the node's containerd\nversion = 2\n\n[grpc]\n  address = \"/run/c.sock\"\n";
  write_file(config, original);
  REQUIRE(configure_runtime("containerd", config).exit_code == 0);
  CHECK_THAT(read_file(config), Catch::StartsWith(original) && Catch::Contains("BinaryName = \"/bin/true\""));
  REQUIRE(configure_runtime("containerd", config, {"--remove"}).exit_code == 0);
  CHECK(read_file(config) == original);
}

TEST_CASE("graft runtime configure refuses --set-as-default and --cdi for engines other than docker",
          "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  auto run = configure_runtime("podman", dir.path(), {"--set-as-default"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("--runtime docker only"));
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("graft runtime configure refuses a runtime path that is not an executable", "[runtime-configure]") {
  TempDir dir("graft-rtcfg-");
  auto run = run_graft({"runtime", "configure", "--runtime", "docker", "--config", dir.path() + "/daemon.json",
                        "--runtime-path", dir.path() + "/missing"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("not an executable file"));
  CHECK(std::filesystem::is_empty(dir.path()));
}
