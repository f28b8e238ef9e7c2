// SPDX-License-Identifier: Apache-2.0
// [exclusive] gpus under the real `graft hook`: a GPU a running container
// holds is refused to the next container with one line naming the holder
// (exit 3, the audit record "refused"); once the holder's process is gone,
// the claim is stale and the GPU goes to the next container. The same for
// an AMD GPU, and across vendors on one host. The
// "containers" are processes in mount namespaces of their own
// (hook_harness.hpp); the test plugin `crash`, doing nothing, stands in for
// the cgroup plugin, so the host's cgroups are never touched.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "fake_amd_host.hpp"
#include "fixture_files.hpp"
#include "hook_harness.hpp"
#include "site_policy.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

std::string exclusive_policy(const std::string& name, const PluginDir& plugins, const std::string& state,
                             const std::string& audit) {
  return write_policy(name, plugins.path(),
                      "[plugins.config.cgroup]\nmode = \"none\"\nphase = \"apply\"\n"
                      "[exclusive]\ngpus = true\nstate_dir = \"" + state + "\"\n",
                      audit);
}

// The NVIDIA fake host with two AMD GPUs added, for claims across vendors.
struct TwoVendorHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2));
  std::string amd_problem = fixture::add_fake_amd_gpus(host.root(), fixture::FakeAmdHostSpec::with_gpus(2));
};

TwoVendorHost& two_vendor_host() {
  static TwoVendorHost host;
  return host;
}

std::string two_vendor_exclusive_policy(const PluginDir& plugins, const std::string& state) {
  return fixture::write_vendor_site_policy_at(
      two_vendor_host().host.root(), "nvidia,amd",
      "[plugins]\ndir = \"" + plugins.path() + "\"\n[plugins.config.cgroup]\nmode = \"none\"\n"
      "phase = \"apply\"\n[exclusive]\ngpus = true\nstate_dir = \"" + state + "\"\n");
}

std::string two_vendor_skip_reason() {
  if (!hook_can_run()) return "needs root and device nodes";
  return two_vendor_host().amd_problem;
}

}  // namespace

TEST_CASE("with [exclusive] gpus, a GPU a running container holds is refused to the next, naming the holder",
          "[claims][hook]") {
  if (!hook_can_run()) GRAFT_SKIP("needs root and device nodes");
  PluginDir plugins("cgroup");
  fixture::TempDir state("graft-exclusive-");
  std::string audit = host().path("/exclusive/audit.jsonl");
  fs::remove(audit);
  std::string policy = exclusive_policy("exclusive-held", plugins, state.path() + "/claims", audit);
  std::string bundle = gpu1_bundle(host().path("/exclusive/held"));
  Container first, second;
  auto granted = hook(policy, state_json("first", first.pid(), bundle));
  INFO(granted.err);
  REQUIRE(granted.exit_code == 0);
  auto refused = hook(policy, state_json("second", second.pid(), bundle));
  CHECK(refused.exit_code == 3);
  CHECK(line_count(refused.err) == 1);
  CHECK_THAT(refused.err, Catch::StartsWith("graft: container second refused: GPU 1 (") &&
                              Catch::Contains("is held by running container first (pid " +
                                              std::to_string(first.pid()) + ")") &&
                              Catch::Contains("graft.toml:"));
  auto lines = fixture::read_file(audit);
  auto last = nlohmann::json::parse(lines.substr(lines.rfind('\n', lines.size() - 2) + 1));
  CHECK(last["id"] == "second");
  CHECK(last["outcome"] == "refused");
}

TEST_CASE("with [exclusive] gpus, a GPU whose holder has stopped goes to the next container",
          "[claims][hook]") {
  if (!hook_can_run()) GRAFT_SKIP("needs root and device nodes");
  PluginDir plugins("cgroup");
  fixture::TempDir state("graft-exclusive-");
  std::string policy = exclusive_policy("exclusive-stale", plugins, state.path() + "/claims", "");
  std::string bundle = gpu1_bundle(host().path("/exclusive/stale"));
  auto first = std::make_unique<Container>();
  REQUIRE(hook(policy, state_json("first", first->pid(), bundle)).exit_code == 0);
  first.reset();  // the holder stops; its claim stays behind, stale
  Container second;
  auto result = hook(policy, state_json("second", second.pid(), bundle));
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
}

TEST_CASE("without [exclusive] gpus, two running containers may share a GPU", "[claims][hook]") {
  if (!hook_can_run()) GRAFT_SKIP("needs root and device nodes");
  PluginDir plugins("cgroup");
  std::string policy =
      write_policy("exclusive-off", plugins.path(), "[plugins.config.cgroup]\nmode = \"none\"\nphase = \"apply\"\n");
  std::string bundle = gpu1_bundle(host().path("/exclusive/shared"));
  Container first, second;
  REQUIRE(hook(policy, state_json("first", first.pid(), bundle)).exit_code == 0);
  CHECK(hook(policy, state_json("second", second.pid(), bundle)).exit_code == 0);
}

namespace {

// Two running containers hooked one after the other under the two-vendor
// exclusive policy, each asking with its own env entry: both hooks' results.
struct TwoHooks {
  testing::CommandResult first, second;
};

TwoHooks hook_two_running(const std::string& first_env, const std::string& second_env) {
  PluginDir plugins("cgroup");
  fixture::TempDir state("graft-exclusive-");
  std::string policy = two_vendor_exclusive_policy(plugins, state.path() + "/claims");
  std::string first_bundle = write_bundle(host().path("/exclusive/two-first"), {"\"" + first_env + "\""});
  std::string second_bundle = write_bundle(host().path("/exclusive/two-second"), {"\"" + second_env + "\""});
  Container first, second;
  TwoHooks results;
  results.first = hook(policy, state_json("first", first.pid(), first_bundle));
  results.second = hook(policy, state_json("second", second.pid(), second_bundle));
  return results;
}

}  // namespace

TEST_CASE("with [exclusive] gpus, an AMD GPU a running container holds is refused to the next, naming it by its "
          "unique id",
          "[claims][hook][amd]") {
  GRAFT_SKIP_IF(two_vendor_skip_reason());
  auto run = hook_two_running("AMD_VISIBLE_DEVICES=0", "AMD_VISIBLE_DEVICES=0");
  INFO(run.first.err);
  REQUIRE(run.first.exit_code == 0);
  CHECK(run.second.exit_code == 3);
  CHECK(line_count(run.second.err) == 1);
  CHECK_THAT(run.second.err, Catch::Contains("(" + fixture::fake_amd_unique_id_hex(fixture::fake_amd_gpu(0)) +
                                             ") is held by running container first"));
}

TEST_CASE("with [exclusive] gpus, NVIDIA GPU 0 and AMD GPU 0 are two GPUs, each for its own container",
          "[claims][hook][amd]") {
  GRAFT_SKIP_IF(two_vendor_skip_reason());
  auto run = hook_two_running("NVIDIA_VISIBLE_DEVICES=0", "AMD_VISIBLE_DEVICES=0");
  INFO(run.first.err << run.second.err);
  REQUIRE(run.first.exit_code == 0);
  CHECK(run.second.exit_code == 0);
}
