// SPDX-License-Identifier: Apache-2.0
// `graft cdi refresh`, what the graft-cdi-refresh units run at boot and on
// every driver or policy change (docs/cdi.md "Keeping the spec current"):
// with a driver it writes the spec as `cdi generate --output` does; without
// one it removes graft's stale spec in one line and exits 0; it never
// replaces or removes a spec graft did not write (cdi/spec_origin.hpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cdi/spec_origin.hpp"
#include "foreign_file.hpp"
#include "hook_harness.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;
using nlohmann::json;

namespace {

// The fake 2-GPU host with the shipped policy.
const std::string& refresh_driver_policy() {
  static std::string policy = harness::write_policy("cdi-refresh", "");
  return policy;
}

// A host root with nothing under it: no driver version, no GPU.
struct DriverlessHost {
  fixture::TempDir root{"graft-no-driver-"};
  std::string policy = fixture::write_site_policy_at(root.path());
};

testing::CommandResult run_refresh(const std::string& policy, const std::vector<std::string>& options) {
  std::vector<std::string> args = {"--policy", policy, "cdi", "refresh"};
  args.insert(args.end(), options.begin(), options.end());
  return testing::run_graft(args);
}

std::string refresh_read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void refresh_write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A spec as NVIDIA's toolkit writes one: its own hook, not graft's.
const char* const kRefreshForeignSpec = R"({"cdiVersion": "0.5.0", "kind": "nvidia.com/gpu", "devices": [
  {"name": "0", "containerEdits": {"deviceNodes": [{"path": "/dev/nvidia0"}]}}],
  "containerEdits": {"hooks": [{"hookName": "createContainer", "path": "/usr/bin/nvidia-cdi-hook",
                                "args": ["nvidia-cdi-hook", "update-ldcache"]}]}})";

long refresh_lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

}  // namespace

TEST_CASE("cdi refresh on a host with a driver writes the spec and says in one line what it wrote", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json spec = json::parse(refresh_read(path));
  CHECK(spec["kind"] == "nvidia.com/gpu");
  CHECK(cdi::written_by_graft(spec));
  CHECK_THAT(result.err, Catch::StartsWith("graft: wrote " + path + ": "));
  CHECK(refresh_lines(result.err) == 1);
}

TEST_CASE("cdi refresh replaces the spec graft wrote before", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(run_refresh(refresh_driver_policy(), {"--output", path, "--kind", "example.com/old"}).exit_code == 0);
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(json::parse(refresh_read(path))["kind"] == "nvidia.com/gpu");
}

// Issue 42: the refreshed spec took the owner and mode of the one it replaced.
TEST_CASE("cdi refresh over graft's spec that another user owns and may write leaves root's 0644 spec",
          "[cdi][refresh]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to give a file to another user");
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(run_refresh(refresh_driver_policy(), {"--output", path}).exit_code == 0);
  test::plant_foreign_file(path);
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  test::check_root_0644(path);
}

TEST_CASE("cdi refresh refuses a symlink at --output in one line, even one leading to graft's own spec",
          "[cdi][refresh]") {
  fixture::TempDir dir, elsewhere;
  std::string target = elsewhere.path() + "/graft.json", path = dir.path() + "/graft.json";
  REQUIRE(run_refresh(refresh_driver_policy(), {"--output", target}).exit_code == 0);
  std::string before = refresh_read(target);
  std::filesystem::create_symlink(target, path);
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  CHECK(result.exit_code == 1);
  CHECK(refresh_lines(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains(path + ": not a spec graft wrote"));
  CHECK(std::filesystem::is_symlink(path));
  CHECK(refresh_read(target) == before);
}

TEST_CASE("cdi refresh makes the spec's directory, which is empty at boot on a tmpfs", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/cdi/graft.json";
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(std::filesystem::is_regular_file(path));
  auto mode = std::filesystem::status(dir.path() + "/cdi").permissions();
  CHECK((mode & std::filesystem::perms::all) == std::filesystem::perms(0755));
}

TEST_CASE("cdi refresh on a host with no driver removes the spec graft wrote, says so in one line and exits 0",
          "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(run_refresh(refresh_driver_policy(), {"--output", path}).exit_code == 0);
  DriverlessHost host;
  auto result = run_refresh(host.policy, {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_THAT(result.err, Catch::StartsWith("graft: no driver loaded") &&
                             Catch::EndsWith("; removed the stale spec " + path + "\n"));
  CHECK(refresh_lines(result.err) == 1);
}

TEST_CASE("cdi refresh on a host with no driver and no spec writes none, says so in one line and exits 0",
          "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  DriverlessHost host;
  auto result = run_refresh(host.policy, {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_THAT(result.err, Catch::EndsWith("; no spec written to " + path + "\n"));
  CHECK(refresh_lines(result.err) == 1);
}

TEST_CASE("cdi refresh removes graft's YAML spec too when no driver is loaded", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.yaml";
  REQUIRE(run_refresh(refresh_driver_policy(), {"--output", path, "--format", "yaml"}).exit_code == 0);
  DriverlessHost host;
  auto result = run_refresh(host.policy, {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("cdi refresh with no driver leaves a spec graft did not write where it is, and says so", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  refresh_write(path, kRefreshForeignSpec);
  DriverlessHost host;
  auto result = run_refresh(host.policy, {"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(refresh_read(path) == kRefreshForeignSpec);
  CHECK_THAT(result.err, Catch::EndsWith(path + " is not a spec graft wrote, left as it is\n"));
}

TEST_CASE("cdi refresh refuses to replace a spec graft did not write, in one line", "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  refresh_write(path, kRefreshForeignSpec);
  auto result = run_refresh(refresh_driver_policy(), {"--output", path});
  CHECK(result.exit_code == 1);
  CHECK(refresh_read(path) == kRefreshForeignSpec);
  CHECK(result.err == "graft: " + path +
                          ": not a spec graft wrote (no graft cdi-hook in it, nor hookless of kind nvidia.com/gpu); "
                          "not replaced\n");
}

// A policy whose plans need no hook (mounts and nodes only) writes a spec
// with none; graft knows it again by the kind it writes.
TEST_CASE("cdi refresh replaces a spec with no hook of the kind it writes, and refuses one of another kind",
          "[cdi][refresh]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  const std::string hookless = R"({"cdiVersion": "0.5.0", "kind": "nvidia.com/gpu", "devices": []})";
  refresh_write(path, hookless);
  auto replaced = run_refresh(refresh_driver_policy(), {"--output", path});
  INFO(replaced.err);
  CHECK(replaced.exit_code == 0);
  CHECK(cdi::written_by_graft(json::parse(refresh_read(path))));
  const std::string other_kind = R"({"cdiVersion": "0.5.0", "kind": "example.com/gpu", "devices": []})";
  refresh_write(path, other_kind);
  auto refused = run_refresh(refresh_driver_policy(), {"--output", path});
  CHECK(refused.exit_code == 1);
  CHECK(refresh_read(path) == other_kind);
}

TEST_CASE("cdi refresh keeps a file current, so it refuses --output -", "[cdi][refresh]") {
  auto result = run_refresh(refresh_driver_policy(), {"--output", "-"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("give --output FILE"));
}

TEST_CASE("a spec is graft's when a hook runs graft's cdi-hook, at spec or device level, and not when it runs "
          "another hook or none",
          "[cdi][refresh]") {
  json graft_hook = {{"hookName", "createRuntime"}, {"path", "/usr/bin/graft"},
                     {"args", {"graft", "--policy", "/etc/graft/graft.toml", "cdi-hook", "createRuntime"}}};
  CHECK(cdi::written_by_graft({{"containerEdits", {{"hooks", {graft_hook}}}}}));
  CHECK(cdi::written_by_graft({{"devices", {{{"name", "0"}, {"containerEdits", {{"hooks", {graft_hook}}}}}}}}));
  CHECK_FALSE(cdi::written_by_graft(json::parse(kRefreshForeignSpec)));
  CHECK_FALSE(cdi::written_by_graft({{"kind", "nvidia.com/gpu"}, {"devices", json::array()}}));
  CHECK_FALSE(cdi::written_by_graft(json::array()));
  CHECK(cdi::runs_any_hook(json::parse(kRefreshForeignSpec)));
  CHECK_FALSE(cdi::runs_any_hook({{"kind", "nvidia.com/gpu"}, {"devices", json::array()}}));
}
