// SPDX-License-Identifier: Apache-2.0
// MIG by UUID without NVML: [vendor.nvidia] partition_uuid_file, a file a MIG
// manager writes ("<uuid> <gpu minor> <gi> <ci>" per line), gives the fake
// host's partitions their UUIDs; NVIDIA_VISIBLE_DEVICES=MIG-<uuid> then
// grants that partition. The file is host configuration, read with the
// trusted-file checks: an untrusted or malformed one is a warning and gives
// no partition a UUID, so UUID requests are refused as without it.
#include <sys/stat.h>

#include <algorithm>

#include "fixture_files.hpp"
#include "inventory/inventory.hpp"
#include "plan_support.hpp"
#include "request/request.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const char* const kUuid0 = "MIG-11111111-2222-4333-8444-555555555555";  // GPU 1, GI 2, CI 1
const char* const kUuid1 = "MIG-66666666-2222-4333-8444-555555555555";  // GPU 0, GI 1, CI 0

// A 2-GPU MIG host (instances (1,0), (2,0), (2,1) on each) whose policy
// names <root>/run/mig-uuids, written with `content` and `mode` (none when
// content is empty).
struct UuidHost {
  fixture::FakeHost host;
  Policy policy;

  static UuidHost make(const std::string& content, mode_t mode = 0644) {
    auto host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2, true));
    std::string file = host.path("/run/mig-uuids");
    if (!content.empty()) {
      fixture::write_file(file, content, mode);
      ::chmod(file.c_str(), mode);
    }
    std::string path = fixture::write_site_policy(host, "[vendor.nvidia]\npartition_uuid_file = \"" + file + "\"\n");
    auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
    if (!policy) FAIL(policy.error().message);
    return UuidHost{std::move(host), std::move(*policy)};
  }

  Inventory inventory() const {
    auto found = discover_inventory(policy);
    if (!found) FAIL(found.error().message);
    return std::move(*found);
  }
};

std::string uuid_of(const Inventory& inv, unsigned gpu, unsigned gi, unsigned ci) {
  for (const auto& p : inv.gpus.at(gpu).partitions)
    if (p.gi == gi && p.ci == ci) return p.uuid;
  return "(no such partition)";
}

bool warns(const Inventory& inv, const std::string& text) {
  return std::any_of(inv.warnings.begin(), inv.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

const std::string kGoodMap = std::string("# written by the MIG manager\n") + kUuid0 + " 1 2 1\n" + kUuid1 +
                             " 0 1 0   # the first instance\n" +
                             "MIG-77777777-2222-4333-8444-555555555555 5 1 0\n";  // no GPU minor 5

}  // namespace

TEST_CASE("the MIG UUID file gives each partition discovery found its UUID", "[discovery][mig-uuid]") {
  auto host = UuidHost::make(kGoodMap);
  Inventory inv = host.inventory();
  CHECK(uuid_of(inv, 1, 2, 1) == kUuid0);
  CHECK(uuid_of(inv, 0, 1, 0) == kUuid1);
  CHECK(uuid_of(inv, 0, 2, 0).empty());
  CHECK(inv.warnings.end() == std::find_if(inv.warnings.begin(), inv.warnings.end(), [](const auto& w) {
          return w.find("partition UUIDs") != std::string::npos;
        }));
}

TEST_CASE("without the MIG UUID file, partitions have no UUIDs and nothing is said", "[discovery][mig-uuid]") {
  auto host = UuidHost::make("");
  Inventory inv = host.inventory();
  CHECK(uuid_of(inv, 1, 2, 1).empty());
  CHECK_FALSE(warns(inv, "partition UUIDs"));
}

TEST_CASE("a MIG UUID file others may write is not used", "[discovery][mig-uuid][hostile]") {
  auto host = UuidHost::make(kGoodMap, 0666);
  Inventory inv = host.inventory();
  CHECK(uuid_of(inv, 1, 2, 1).empty());
  CHECK(warns(inv, "partition UUIDs not used"));
}

TEST_CASE("a malformed MIG UUID file is not used, and the warning names its line", "[discovery][mig-uuid]") {
  auto host = UuidHost::make(std::string(kUuid0) + " 1 2 1\n" + kUuid1 + " zero 1 0\n");
  Inventory inv = host.inventory();
  CHECK(uuid_of(inv, 1, 2, 1).empty());
  CHECK(warns(inv, "mig-uuids:2: expected '<uuid> <gpu minor> <gi> <ci>'"));
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=MIG-<uuid> plans the partition the MIG UUID file names", "[plan][mig-uuid]") {
  auto host = UuidHost::make(kGoodMap);
  if (!host.host.device_nodes_created()) return;
  auto request = request_from_flags({std::string("NVIDIA_VISIBLE_DEVICES=") + kUuid0}, {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, host.policy);
  REQUIRE(evaluation);
  const Plan& plan = evaluation->plan;
  REQUIRE_FALSE(plan.intent.refusal);
  REQUIRE(plan.devices.size() == 1);
  CHECK(plan.devices[0].index == 1);
  CHECK(plan.devices[0].partition == 2u);  // GPU 1's third instance, (2,1)
  CHECK(has_target(plan, ActionKind::device_node,
                   "/dev/nvidia-caps/nvidia-cap" + std::to_string(fixture::mig_ci_minor(1, 2, 1))));
  CHECK_FALSE(has_target(plan, ActionKind::device_node,
                         "/dev/nvidia-caps/nvidia-cap" + std::to_string(fixture::mig_ci_minor(1, 2, 0))));
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=MIG-<uuid> is refused with one line when the host has no MIG UUID file",
          "[plan][mig-uuid]") {
  auto host = UuidHost::make("");
  auto request = request_from_flags({std::string("NVIDIA_VISIBLE_DEVICES=") + kUuid0}, {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, host.policy);
  REQUIRE(evaluation);
  REQUIRE(evaluation->plan.intent.refusal);
  CHECK_THAT(evaluation->plan.intent.refusal->text,
             Catch::Contains("MIG UUIDs cannot be resolved without NVML or a MIG UUID file"));
}
