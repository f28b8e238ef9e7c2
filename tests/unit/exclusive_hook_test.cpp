// SPDX-License-Identifier: Apache-2.0
// [exclusive] gpus under the real `graft hook`: a GPU a running container
// holds is refused to the next container with one line naming the holder
// (exit 3, the audit record "refused"); once the holder's process is gone,
// the claim is stale and the GPU goes to the next container. The
// "containers" are processes in mount namespaces of their own
// (hook_harness.hpp); the test plugin `crash`, doing nothing, stands in for
// the cgroup plugin, so the host's cgroups are never touched.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "fixture_files.hpp"
#include "hook_harness.hpp"
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
