// SPDX-License-Identifier: Apache-2.0
// prepare_bundle, what graft-runtime does before create: a bundle of the
// fake host evaluated as `graft plan --bundle` would, then left byte for byte
// as it was, refused, or given graft's hook. The real runtimes and engines
// drive it in tests/e2e/runtime_shim_test.cpp.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "config_edit.hpp"
#include "fixture_files.hpp"
#include "hook_harness.hpp"
#include "prepare_bundle.hpp"
#include "site_policy.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;
using graft::runtime::bundle_files;
using graft::runtime::BundleFiles;
using graft::runtime::BundleOutcome;
using graft::runtime::ordered_json;
using graft::runtime::prepare_bundle;

namespace {

const GraftHook kPrepareHook{"/usr/bin/graft", "/etc/graft/graft.toml"};

SitePolicy shim_policy(const std::string& name, const std::string& extra = "") {
  auto loaded = load_policy(harness::write_policy(name, "", extra), PolicySearch{{fixture::source_policy_dir()}});
  INFO((loaded ? std::string() : loaded.error().message));
  REQUIRE(loaded);
  return SitePolicy(std::make_shared<const Policy>(std::move(loaded).value()));
}

// The bundle's files as graft-runtime finds them for a create with no --config.
BundleFiles files_of(const std::string& bundle, const std::string& config = "") {
  auto files = bundle_files(bundle, config);
  INFO((files ? std::string() : files.error().message));
  REQUIRE(files);
  return std::move(files).value();
}

// Runs in `dir` until the end of the scope, as the engine runs the runtime.
class InDirectory {
 public:
  explicit InDirectory(const std::string& dir) : before_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InDirectory() { std::filesystem::current_path(before_); }

 private:
  std::filesystem::path before_;
};

struct stat stat_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st;
}

}  // namespace

TEST_CASE("a container that asks for no GPU keeps its config.json byte for byte", "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string bundle = harness::write_bundle(dir.path(), {R"("A=1")"});
  std::string config = bundle + "/config.json";
  std::string before = fixture::read_file(config);
  auto inode = stat_of(config).st_ino;
  auto prepared = prepare_bundle(shim_policy("shim-plain"), files_of(bundle), "c1", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::untouched);
  CHECK(fixture::read_file(config) == before);
  CHECK(stat_of(config).st_ino == inode);  // not even rewritten
}

TEST_CASE("a GPU container's config.json gets graft's hook once, mode and other fields kept",
          "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string bundle = harness::write_bundle(dir.path(), {R"("NVIDIA_VISIBLE_DEVICES=1")"},
                                             R"(,"hooks":{"createRuntime":[{"path":"/bin/a"}]},"x-engine":[3,2,1])");
  std::string config = bundle + "/config.json";
  ::chmod(config.c_str(), 0640);
  auto before = ordered_json::parse(fixture::read_file(config));
  SitePolicy policy = shim_policy("shim-gpu");
  auto prepared = prepare_bundle(policy, files_of(bundle), "c2", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::edited);
  auto after = ordered_json::parse(fixture::read_file(config));
  auto expected = before;
  expected["hooks"]["createRuntime"].push_back(runtime::hook_entry(runtime::graft_hook_command(kPrepareHook)));
  CHECK(after.dump() == expected.dump());
  CHECK((stat_of(config).st_mode & 07777) == 0640);
  // Preparing again (a retried create) leaves it as it is.
  auto again = prepare_bundle(policy, files_of(bundle), "c2", kPrepareHook);
  REQUIRE(again);
  CHECK(fixture::read_file(config) == after.dump());
  // No temporary file is left beside it.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(bundle)) ++entries;
  CHECK(entries == 2);  // config.json and rootfs
}

TEST_CASE("in declarative mode a GPU container's config.json gets the plan's nodes, rules and binds, "
          "and graft cdi-hook for the rest", "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string bundle = harness::gpu1_bundle(dir.path());
  SitePolicy policy = shim_policy("shim-declarative", "[runtime]\nmode = \"declarative\"\n");
  auto prepared = prepare_bundle(policy, files_of(bundle), "c5", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::edited);
  auto config = ordered_json::parse(fixture::read_file(bundle + "/config.json"));
  std::string text = config.dump();
  INFO(text);
  const auto& devices = config.at("linux").at("devices");
  CHECK(std::any_of(devices.begin(), devices.end(), [](const ordered_json& d) { return d.at("path") == "/dev/nvidia1"; }));
  CHECK_FALSE(std::any_of(devices.begin(), devices.end(), [](const ordered_json& d) { return d.at("path") == "/dev/nvidia0"; }));
  const auto& rules = config.at("linux").at("resources").at("devices");
  CHECK(std::any_of(rules.begin(), rules.end(), [](const ordered_json& r) {
    return r.at("allow") == true && r.at("major") == 195 && r.at("minor") == 1;
  }));
  const auto& mounts = config.at("mounts");
  CHECK(std::any_of(mounts.begin(), mounts.end(), [](const ordered_json& m) {
    return m.at("destination") == "/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03";
  }));
  const auto& hooks = config.at("hooks").at("createRuntime");
  REQUIRE(hooks.size() == 1);
  CHECK(hooks[0].at("args")[3] == "cdi-hook");
  CHECK(hooks[0].at("env") == ordered_json::array({kHookPath}));
}

TEST_CASE("a refused container is refused with graft's line and its config.json untouched",
          "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string rule = dir.path() + "/deny.lua";
  std::ofstream(rule) << "rule('closed', function(req, host, grant)\n  grant:deny('no GPUs here')\nend)\n";
  std::string bundle = harness::gpu1_bundle(dir.path() + "/bundle");
  std::string before = fixture::read_file(bundle + "/config.json");
  auto prepared = prepare_bundle(shim_policy("shim-deny", "rules = [\"" + rule + "\"]\n"), files_of(bundle),
                                 "c3", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::refused);
  CHECK(prepared->refusal == "container c3 refused: no GPUs here (deny.lua:2)");
  CHECK(fixture::read_file(bundle + "/config.json") == before);
}

TEST_CASE("a bundle without config.json is an error naming the file", "[runtime]") {
  fixture::TempDir dir("graft-shim-");
  auto prepared = prepare_bundle(SitePolicy(std::make_shared<const Policy>()), files_of(dir.path()), "c4", kPrepareHook);
  REQUIRE_FALSE(prepared);
  CHECK(prepared.error().message == dir.path() + "/config.json: No such file or directory");
}

TEST_CASE("graft-runtime finds the bundle through its symlinks, as runc's chdir and crun's realpath find it",
          "[runtime]") {
  fixture::TempDir dir("graft-shim-");
  std::filesystem::create_directories(dir.path() + "/real/sub");
  std::filesystem::create_directory_symlink(dir.path() + "/real/sub", dir.path() + "/link");
  // link/.. is real, not the directory holding link.
  auto files = files_of(dir.path() + "/link/..");
  CHECK(files.bundle == std::filesystem::canonical(dir.path() + "/real").string());
  CHECK(files.config == files.bundle + "/config.json");
  CHECK(files.config_in_bundle);
}

TEST_CASE("graft-runtime takes crun's --config for the bundle's config.json only as config.json or by its own path",
          "[runtime]") {
  fixture::TempDir bundle("graft-shim-bundle-"), elsewhere("graft-shim-cwd-");
  InDirectory cwd(elsewhere.path());
  // "config.json" is the bundle's: crun reads it after changing into the bundle.
  CHECK(files_of(bundle.path(), "config.json").config == bundle.path() + "/config.json");
  CHECK(files_of(bundle.path(), "config.json").config_in_bundle);
  CHECK(files_of(bundle.path(), bundle.path() + "/config.json").config_in_bundle);
  // Any other relative path is relative to the current directory, not to the bundle.
  auto other = files_of(bundle.path(), "spec.json");
  CHECK(other.config == elsewhere.path() + "/spec.json");
  CHECK_FALSE(other.config_in_bundle);
  auto dotted = files_of(bundle.path(), "./config.json");
  CHECK(dotted.config == elsewhere.path() + "/./config.json");
  CHECK_FALSE(dotted.config_in_bundle);
  CHECK_FALSE(files_of(bundle.path(), "/etc/spec.json").config_in_bundle);
}

TEST_CASE("graft-runtime reads the spec crun's --config names: one that asks for nothing passes untouched",
          "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string bundle = harness::gpu1_bundle(dir.path() + "/bundle");
  std::string spec = harness::write_bundle(dir.path() + "/spec", {R"("A=1")"}) + "/config.json";
  std::string before = fixture::read_file(spec);
  auto prepared = prepare_bundle(shim_policy("shim-config-plain"), files_of(bundle, spec), "c6", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::untouched);
  CHECK(fixture::read_file(spec) == before);
}

TEST_CASE("graft-runtime refuses a GPU container whose spec crun's --config puts outside its bundle, nothing edited",
          "[runtime]") {
  GRAFT_SKIP_IF(harness::hook_can_run() ? "" : "needs root and the fake host's device nodes");
  fixture::TempDir dir("graft-shim-");
  std::string bundle = harness::write_bundle(dir.path() + "/bundle", {R"("A=1")"});
  std::string spec = harness::gpu1_bundle(dir.path() + "/spec") + "/config.json";
  std::string before = fixture::read_file(spec), bundle_before = fixture::read_file(bundle + "/config.json");
  auto prepared = prepare_bundle(shim_policy("shim-config-gpu"), files_of(bundle, spec), "c7", kPrepareHook);
  REQUIRE(prepared);
  CHECK(prepared->outcome == BundleOutcome::config_elsewhere);
  CHECK(prepared->refusal == "container c7 refused: it asks for GPUs and its spec is " + spec + ", not " +
                                 bundle + "/config.json, which graft's hook reads; give crun no --config for it");
  CHECK(fixture::read_file(spec) == before);
  CHECK(fixture::read_file(bundle + "/config.json") == bundle_before);
}
