// SPDX-License-Identifier: Apache-2.0
// `graft cdi generate` with the shipped amd policy on the fake AMD host:
// kind amd.com/gpu, devices named as amd-ctk names them (0, 1, ..., all),
// /dev/kfd for every device and each GPU's render node in its own.
#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "fake_amd_host.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;
using nlohmann::json;

namespace {

json amd_spec(const FakeAmdHost& host) {
  std::string policy = write_vendor_site_policy_at(host.root(), "amd");
  auto result = testing::run_graft({"--policy", policy, "cdi", "generate"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

const json* amd_device_named(const json& spec, const std::string& name) {
  for (const auto& device : spec["devices"])
    if (device["name"] == name) return &device;
  return nullptr;
}

std::vector<std::string> amd_node_paths(const json& edits) {
  std::vector<std::string> paths;
  for (const auto& node : edits.value("deviceNodes", json::array())) paths.push_back(node["path"]);
  return paths;
}

}  // namespace

TEST_CASE("cdi generate on an AMD host names amd.com/gpu devices 0, 1 and all as amd-ctk does", "[amd][cdi]") {
  auto host = FakeAmdHost::build(FakeAmdHostSpec::with_gpus(2));
  GRAFT_SKIP_IF(host.ldcache_problem().empty() ? host.device_nodes_problem() : host.ldcache_problem());
  json spec = amd_spec(host);
  CHECK(spec["kind"] == "amd.com/gpu");
  for (const char* name : {"0", "1", "all"}) CHECK(amd_device_named(spec, name));
  CHECK(amd_node_paths(spec["containerEdits"]) == std::vector<std::string>{"/dev/kfd"});
  const json* second = amd_device_named(spec, "1");
  REQUIRE(second);
  CHECK(amd_node_paths((*second)["containerEdits"]) == std::vector<std::string>{"/dev/dri/renderD129"});
  const json* all = amd_device_named(spec, "all");
  REQUIRE(all);
  auto all_nodes = amd_node_paths((*all)["containerEdits"]);
  CHECK(std::count(all_nodes.begin(), all_nodes.end(), "/dev/dri/renderD128") == 1);
  CHECK(std::count(all_nodes.begin(), all_nodes.end(), "/dev/dri/renderD129") == 1);
}
