// SPDX-License-Identifier: Apache-2.0
// One host with NVIDIA and AMD GPUs (the fake NVIDIA host with fake AMD GPUs
// added) under a site policy including both shipped policies: discovery
// numbers each vendor's GPUs, and a container gets exactly the vendors it
// asked for, in plans and in CDI specs.
#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "evaluation/container_plan.hpp"
#include "fake_amd_host.hpp"
#include "fake_host.hpp"
#include "fake_libraries.hpp"
#include "inventory/inventory.hpp"
#include "plan_queries.hpp"
#include "request/request.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;
using namespace graft::test;

namespace {

struct TwoVendorHost {
  FakeHost host;
  std::string amd_problem;  // why the AMD device nodes were not made
  std::string policy_path;
  Policy policy;
};

// Two NVIDIA GPUs (minors 0, 1) and two AMD GPUs (renderD128, renderD129);
// with `host_rocm`, host ROCm's libraries too, which the site then lists.
TwoVendorHost two_vendor_host(bool host_rocm = false) {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(2));
  std::string problem = add_fake_amd_gpus(host.root(), FakeAmdHostSpec::with_gpus(2));
  if (host_rocm) {
    install_fake_rocm(host.root());
    if (auto ldconfig = run_ldconfig(host.root()); !ldconfig.empty()) problem = ldconfig;
  }
  std::string extra = host_rocm ? "[data.amd]\ncapabilities = [\"amd-host-rocm\"]\n" : "";
  std::string path = write_vendor_site_policy_at(host.root(), "nvidia,amd", extra);
  auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
  if (!policy) FAIL(policy.error().message);
  return TwoVendorHost{std::move(host), problem, path, std::move(*policy)};
}

std::string skip_reason(const TwoVendorHost& host) {
  if (!host.host.ldcache_created()) return host.host.ldcache_problem();
  if (!host.host.device_nodes_created()) return host.host.device_nodes_problem();
  return host.amd_problem;
}

Plan plan_for(const TwoVendorHost& host, const std::vector<std::string>& env) {
  auto request = request_from_flags(env, {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, host.policy);
  if (!evaluation) FAIL(evaluation.error().message);
  return evaluation->plan;
}

bool has_any_library(const Plan& plan) {
  auto mounts = actions_of(plan, ActionKind::bind_mount);
  return std::any_of(mounts.begin(), mounts.end(), [](const Action& a) { return a.plugin == "libraries"; });
}

nlohmann::json spec_of_kind(const TwoVendorHost& host, const std::string& kind) {
  auto result = testing::run_graft({"--policy", host.policy_path, "cdi", "generate", "--kind", kind});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

std::vector<std::string> node_paths(const nlohmann::json& edits) {
  std::vector<std::string> paths;
  for (const auto& node : edits.value("deviceNodes", nlohmann::json::array())) paths.push_back(node["path"]);
  return paths;
}

const nlohmann::json* device_named(const nlohmann::json& spec, const std::string& name) {
  for (const auto& device : spec["devices"])
    if (device["name"] == name) return &device;
  return nullptr;
}

}  // namespace

TEST_CASE("on a host of two vendors, discovery numbers NVIDIA's GPUs first and each vendor's from 0",
          "[vendor][inventory]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(host.host.ldcache_problem());
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  REQUIRE(inventory->gpus.size() == 4);
  for (unsigned i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(inventory->gpus[i].index == i);
    CHECK(inventory->gpus[i].vendor == (i < 2 ? "nvidia" : "amd"));
    CHECK(inventory->gpus[i].vendor_index == i % 2);
  }
  CHECK(inventory->gpus[3].minor == 129);
  CHECK(inventory->driver_versions.at("nvidia") == fake_driver_version());
  CHECK(inventory->driver_versions.at("amd") == "6.10.5");
}

TEST_CASE("a container asking for an AMD GPU on a host of two vendors gets nothing of NVIDIA's", "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  Plan plan = plan_for(host, {"AMD_VISIBLE_DEVICES=1"});
  CHECK(has_target(plan, ActionKind::device_node, "/dev/kfd"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/dri/renderD129"));
  CHECK(targets(plan, ActionKind::device_node).size() == 2);
  CHECK_FALSE(has_any_library(plan));
  CHECK(actions_of(plan, ActionKind::procfs_mask).empty());
}

TEST_CASE("the plan of a container of one vendor names that vendor's driver version", "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  CHECK(plan_for(host, {"AMD_VISIBLE_DEVICES=0"}).driver_version == "6.10.5");
  CHECK(plan_for(host, {"NVIDIA_VISIBLE_DEVICES=0"}).driver_version == fake_driver_version());
}

TEST_CASE("a container asking for an NVIDIA GPU on a host of two vendors gets no /dev/kfd and no AMD node",
          "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  Plan plan = plan_for(host, {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=all"});
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidia1"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidiactl"));
  CHECK(has_any_library(plan));
  for (const auto& path : targets(plan, ActionKind::device_node)) {
    CAPTURE(path);
    CHECK(path != "/dev/kfd");
    CHECK_FALSE(path.starts_with("/dev/dri/renderD12"));
    CHECK(path != "/dev/dri/card0");
    CHECK(path != "/dev/dri/card1");
  }
}

TEST_CASE("on a host of two vendors, an AMD container gets host ROCm's libraries and an NVIDIA one the driver's, "
          "each picked by its own vendor's version rule",
          "[vendor][plan]") {
  auto host = two_vendor_host(true);
  GRAFT_SKIP_IF(skip_reason(host));
  Plan amd = plan_for(host, {"AMD_VISIBLE_DEVICES=0"});
  Plan nvidia = plan_for(host, {"NVIDIA_VISIBLE_DEVICES=0", "NVIDIA_DRIVER_CAPABILITIES=compute"});
  for (const auto& lib : fake_rocm_libraries()) {
    CAPTURE(lib.file);
    CHECK(mounts_file(amd, std::string(lib.file)));
    CHECK_FALSE(mounts_file(nvidia, std::string(lib.file)));
  }
  std::string libcuda = "libcuda.so." + std::string(fake_driver_version());
  CHECK(mounts_file(nvidia, libcuda));
  CHECK_FALSE(mounts_file(amd, libcuda));
}

TEST_CASE("a container asking for both vendors' GPUs gets both, each by its own vendor's number", "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  Plan plan = plan_for(host, {"NVIDIA_VISIBLE_DEVICES=0", "AMD_VISIBLE_DEVICES=0"});
  for (const char* node : {"/dev/nvidia0", "/dev/nvidiactl", "/dev/kfd", "/dev/dri/renderD128"}) {
    CAPTURE(node);
    CHECK(has_target(plan, ActionKind::device_node, node));
  }
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/nvidia1"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/renderD129"));
  REQUIRE(plan.devices.size() == 2);
  CHECK(plan.devices[0].index == 0);
  CHECK(plan.devices[1].index == 2);
}

TEST_CASE("AMD_VISIBLE_DEVICES=none on a host of two vendors gives /dev/kfd alone", "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  Plan plan = plan_for(host, {"AMD_VISIBLE_DEVICES=none"});
  CHECK(targets(plan, ActionKind::device_node) == std::vector<std::string>{"/dev/kfd"});
  CHECK_FALSE(has_any_library(plan));
}

TEST_CASE("an index past a vendor's own GPUs is refused, though the host has more GPUs", "[vendor][plan]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(host.host.ldcache_problem());
  Plan plan = plan_for(host, {"AMD_VISIBLE_DEVICES=2"});
  REQUIRE(plan.intent.refusal);
  CHECK(plan.intent.refusal->text == "unknown device '2' in AMD_VISIBLE_DEVICES (the host has 2 AMD GPUs)");
}

TEST_CASE("cdi generate writes one vendor's GPUs per kind, each numbered from 0", "[vendor][cdi]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(skip_reason(host));
  auto amd = spec_of_kind(host, "amd.com/gpu");
  CHECK(node_paths(amd["containerEdits"]) == std::vector<std::string>{"/dev/kfd"});
  const auto* amd_first = device_named(amd, "0");
  REQUIRE(amd_first);
  CHECK(node_paths((*amd_first)["containerEdits"]) == std::vector<std::string>{"/dev/dri/renderD128"});
  CHECK_FALSE(device_named(amd, "2"));

  auto nvidia = spec_of_kind(host, "nvidia.com/gpu");
  auto shared = node_paths(nvidia["containerEdits"]);
  CHECK(std::find(shared.begin(), shared.end(), "/dev/nvidiactl") != shared.end());
  CHECK(std::find(shared.begin(), shared.end(), "/dev/kfd") == shared.end());
  const auto* nvidia_second = device_named(nvidia, "1");
  REQUIRE(nvidia_second);
  auto second_nodes = node_paths((*nvidia_second)["containerEdits"]);
  CHECK(std::find(second_nodes.begin(), second_nodes.end(), "/dev/nvidia1") != second_nodes.end());
  CHECK_FALSE(device_named(nvidia, "2"));
}

TEST_CASE("cdi generate with a kind neither vendor names is an error listing theirs", "[vendor][cdi]") {
  auto host = two_vendor_host();
  GRAFT_SKIP_IF(host.host.ldcache_problem());
  auto result = testing::run_graft({"--policy", host.policy_path, "cdi", "generate", "--kind", "example.com/gpu"});
  CHECK(result.exit_code != 0);
  CHECK_THAT(result.err, Catch::Contains("kind example.com/gpu is no vendor's cdi_kind; this policy's vendors name "
                                         "nvidia.com/gpu, amd.com/gpu"));
}
