// SPDX-License-Identifier: Apache-2.0
// The shipped amd policy on the fake AMD host (tests/fixture/fake_amd_host.hpp):
// discovery through the kfd topology and PCI sysfs, and plans with /dev/kfd,
// each granted GPU's render node and, when the site asks, its card node and
// the host's ROCm libraries.
#include <catch2/catch.hpp>

#include <algorithm>

#include "evaluation/container_plan.hpp"
#include "fake_amd_host.hpp"
#include "fake_libraries.hpp"
#include "inventory/inventory.hpp"
#include "plan_queries.hpp"
#include "request/request.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;
using namespace graft::test;

namespace {

struct AmdHost {
  FakeAmdHost host;
  Policy policy;
};

AmdHost amd_host(const FakeAmdHostSpec& spec, const std::string& extra = "") {
  auto host = FakeAmdHost::build(spec);
  auto policy = load_policy(write_vendor_site_policy_at(host.root(), "amd", extra), PolicySearch{{fixture::source_policy_dir()}});
  if (!policy) FAIL(policy.error().message);
  return AmdHost{std::move(host), std::move(*policy)};
}

Plan amd_plan(const AmdHost& host, const std::string& visible_devices) {
  auto request = request_from_flags({"AMD_VISIBLE_DEVICES=" + visible_devices}, {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, host.policy);
  if (!evaluation) FAIL(evaluation.error().message);
  return evaluation->plan;
}

// Why a case cannot run here: discovery needs the fake ld.so.cache, plans
// of device nodes need the nodes (both need root or a user namespace).
std::string ldcache_problem(const AmdHost& host) { return host.host.ldcache_problem(); }
std::string nodes_problem(const AmdHost& host) {
  return host.host.ldcache_problem().empty() ? host.host.device_nodes_problem() : host.host.ldcache_problem();
}

}  // namespace

TEST_CASE("AMD discovery skips the CPU node and lists GPUs in render-minor order", "[amd][inventory]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(3));
  GRAFT_SKIP_IF(ldcache_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  REQUIRE(inventory->gpus.size() == 3);
  for (unsigned i = 0; i < 3; ++i) {
    CHECK(inventory->gpus[i].index == i);
    CHECK(inventory->gpus[i].minor == 128 + i);
  }
}

TEST_CASE("AMD discovery turns the unique id into hex and the location id into a PCI bus id", "[amd][inventory]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(2));
  GRAFT_SKIP_IF(ldcache_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  REQUIRE(inventory->gpus.size() == 2);
  CHECK(inventory->gpus[1].uuid == fake_amd_unique_id_hex(fake_amd_gpu(1)));
  CHECK(inventory->gpus[0].bus_id == "0000:05:00.0");
  CHECK(inventory->gpus[1].bus_id == "0000:26:00.0");
}

TEST_CASE("AMD discovery reads the module version, and its absence is no warning", "[amd][inventory]") {
  auto with_version = amd_host(FakeAmdHostSpec::with_gpus(1));
  GRAFT_SKIP_IF(ldcache_problem(with_version));
  auto inventory = discover_inventory(with_version.policy);
  REQUIRE(inventory);
  CHECK(inventory->driver_version == "6.10.5");

  auto spec = FakeAmdHostSpec::with_gpus(1);
  spec.driver_version = "";
  auto in_tree = amd_host(spec);
  GRAFT_SKIP_IF(ldcache_problem(in_tree));
  auto unknown = discover_inventory(in_tree.policy);
  REQUIRE(unknown);
  CHECK(unknown->driver_version.empty());
  for (const auto& warning : unknown->warnings) CHECK_THAT(warning, !Catch::Contains("driver"));
  CHECK(unknown->gpus.size() == 1);
}

TEST_CASE("AMD discovery finds each GPU's card node through PCI sysfs by bus id", "[amd][inventory]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(2));
  GRAFT_SKIP_IF(nodes_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  const auto& cards = inventory->gpu_class_nodes["amd-card"];
  REQUIRE(cards.count(1) == 1);
  CHECK(cards.at(1) == std::vector<std::string>{"/dev/dri/card1"});
  CHECK(inventory->device_nodes.at("/dev/kfd").major == host.host.spec().kfd_major);
}

TEST_CASE("An AMD GPU container gets /dev/kfd and its GPU's render node, not another GPU's", "[amd][plan]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(2));
  GRAFT_SKIP_IF(nodes_problem(host));
  Plan plan = amd_plan(host, "1");
  const Action* kfd = find_action(plan, ActionKind::device_node, "/dev/kfd");
  REQUIRE(kfd);
  CHECK(kfd->major == host.host.spec().kfd_major);
  CHECK(kfd->provenance.capability == "amd-base");
  const Action* render = find_action(plan, ActionKind::device_node, "/dev/dri/renderD129");
  REQUIRE(render);
  CHECK(render->major == kFakeDrmMajor);
  CHECK_THAT(render->provenance.reason, Catch::Contains("AMD_VISIBLE_DEVICES=1"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 226:129"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/renderD128"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/card1"));
}

TEST_CASE("An AMD GPU named by its unique id gets that GPU's render node", "[amd][plan]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(3));
  GRAFT_SKIP_IF(nodes_problem(host));
  Plan plan = amd_plan(host, fake_amd_unique_id_hex(fake_amd_gpu(2)));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/dri/renderD130"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/renderD128"));
}

TEST_CASE("A site that lists amd-card gives each granted AMD GPU its card node", "[amd][plan]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(2), "[data.amd]\ncapabilities = [\"amd-card\"]\n");
  GRAFT_SKIP_IF(nodes_problem(host));
  Plan plan = amd_plan(host, "0");
  const Action* card = find_action(plan, ActionKind::device_node, "/dev/dri/card0");
  REQUIRE(card);
  CHECK(card->provenance.capability == "amd-card");
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/card1"));
}

TEST_CASE("Each partition of a partitioned AMD GPU is a GPU with its own render node", "[amd][plan]") {
  auto host = amd_host(FakeAmdHostSpec::with_partitions(2, 4));
  GRAFT_SKIP_IF(nodes_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  REQUIRE(inventory->gpus.size() == 8);
  CHECK(inventory->gpus[5].bus_id == "0000:26:00.0");
  Plan plan = amd_plan(host, "5");
  CHECK(has_target(plan, ActionKind::device_node, "/dev/dri/renderD133"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/dri/renderD132"));
}

TEST_CASE("An AMD_VISIBLE_DEVICES=void container gets no AMD device", "[amd][plan]") {
  auto host = amd_host(FakeAmdHostSpec::with_gpus(1));
  GRAFT_SKIP_IF(ldcache_problem(host));
  Plan plan = amd_plan(host, "void");
  CHECK(actions_of(plan, ActionKind::device_node).empty());
}

namespace {

const char* kHostRocm = "[data.amd]\ncapabilities = [\"amd-host-rocm\"]\n";

FakeAmdHostSpec with_host_rocm(unsigned gpus) {
  auto spec = FakeAmdHostSpec::with_gpus(gpus);
  spec.with_host_rocm = true;
  return spec;
}

}  // namespace

TEST_CASE("AMD discovery finds host ROCm's libraries in the ld.so.cache whatever their version", "[amd][inventory]") {
  auto host = amd_host(with_host_rocm(1));
  GRAFT_SKIP_IF(ldcache_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  for (const auto& lib : fake_rocm_libraries()) {
    std::string prefix(lib.soname.substr(0, lib.soname.find(".so.") + 3));
    INFO(prefix);
    const auto& found = inventory->libraries[prefix];
    REQUIRE(found.size() == 1);
    CHECK(found[0].soname == lib.soname);
    // Through the /opt/rocm link to the versioned tree, the file itself.
    CHECK(found[0].host_path == host.host.path(fake_rocm_lib_dir() + "/" + std::string(lib.file)));
  }
  CHECK(std::none_of(inventory->warnings.begin(), inventory->warnings.end(),
                     [](const std::string& w) { return w.find("not found") != std::string::npos; }));
}

TEST_CASE("A site that lists amd-host-rocm gives an AMD container the host's HIP, HSA and SMI libraries",
          "[amd][plan]") {
  auto host = amd_host(with_host_rocm(2), kHostRocm);
  GRAFT_SKIP_IF(nodes_problem(host));
  Plan plan = amd_plan(host, "0");
  for (const auto& lib : fake_rocm_libraries()) {
    INFO(lib.file);
    const Action* mount = find_action(plan, ActionKind::bind_mount, plan.lib_dir + "/" + std::string(lib.file));
    REQUIRE(mount);
    CHECK(mount->provenance.capability == "amd-host-rocm");
    CHECK(mount->source == host.host.path(fake_rocm_lib_dir() + "/" + std::string(lib.file)));
    const Action* link = find_action(plan, ActionKind::symlink, plan.lib_dir + "/" + std::string(lib.soname));
    REQUIRE(link);
    CHECK(link->source == lib.file);
  }
  CHECK_FALSE(actions_of(plan, ActionKind::ldcache_update).empty());
}

TEST_CASE("Without amd-host-rocm, an AMD container gets none of the host's ROCm libraries", "[amd][plan]") {
  auto host = amd_host(with_host_rocm(1));
  GRAFT_SKIP_IF(nodes_problem(host));
  Plan plan = amd_plan(host, "all");
  REQUIRE(has_target(plan, ActionKind::device_node, "/dev/kfd"));
  for (const auto& lib : fake_rocm_libraries()) CHECK_FALSE(mounts_file(plan, std::string(lib.file)));
  CHECK(actions_of(plan, ActionKind::ldcache_update).empty());
}

TEST_CASE("With library_version = \"driver\", host ROCm's libraries do not fit the amdgpu version and are left out",
          "[amd][inventory]") {
  auto host = amd_host(with_host_rocm(1), std::string(kHostRocm) + "\n[vendor.amd]\nlibrary_version = \"driver\"\n");
  GRAFT_SKIP_IF(nodes_problem(host));
  auto inventory = discover_inventory(host.policy);
  REQUIRE(inventory);
  CHECK(inventory->libraries["libamdhip64.so"].empty());
  Plan plan = amd_plan(host, "0");
  for (const auto& lib : fake_rocm_libraries()) CHECK_FALSE(mounts_file(plan, std::string(lib.file)));
}
