// NVIDIA env contract, MIG: selecting MIG partitions in NVIDIA_VISIBLE_DEVICES
// and MIG management (NVIDIA_MIG_CONFIG_DEVICES, NVIDIA_MIG_MONITOR_DEVICES).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: MIG

TEST_CASE("a <gpu>:<mig> index grants that MIG partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:1"}});
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"7:1"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=7:1");
}

TEST_CASE("a MIG index on a GPU without MIG partitions is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "2:0"}});
  CHECK(refusal(intent) ==
        "unknown device '2:0' in NVIDIA_VISIBLE_DEVICES (GPU 2 has no MIG partitions)");
}

TEST_CASE("a MIG partition index out of range is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:3"}});
  CHECK(refusal(intent) ==
        "unknown device '7:3' in NVIDIA_VISIBLE_DEVICES (GPU 7 has 3 MIG partitions)");
}

TEST_CASE("a MIG index on a GPU that does not exist is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "9:0"}});
  CHECK(refusal(intent) == "unknown device '9:0' in NVIDIA_VISIBLE_DEVICES (the host has 8 GPUs)");
}

TEST_CASE("a MIG UUID is refused when the host has no MIG UUID file", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "MIG-4f1a3d2c-1111-2222-3333-444455556666"}});
  CHECK(refusal(intent) ==
        "cannot resolve MIG device 'MIG-4f1a3d2c-1111-2222-3333-444455556666' in "
        "NVIDIA_VISIBLE_DEVICES: MIG UUIDs cannot be resolved without NVML or a MIG UUID file "
        "([discovery] partition_uuid_file); use <gpu>:<mig> indices (e.g. 0:1)");
  CHECK(intent.devices.empty());
}

namespace {
// GPU 7's partitions with the UUIDs a MIG manager's file gave them.
Inventory with_partition_uuids() {
  Inventory inv = make_inventory();
  inv.gpus[7].partitions[0].uuid = "MIG-4f1a3d2c-1111-2222-3333-444455556666";
  inv.gpus[7].partitions[2].uuid = "MIG-9e8d7c6b-1111-2222-3333-444455556666";
  return inv;
}
}  // namespace

TEST_CASE("a MIG UUID the host's MIG UUID file names grants that partition, in any case", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "MIG-9E8D7C6B-1111-2222-3333-444455556666"}}),
                         trusting_policy(), with_partition_uuids());
  CHECK_FALSE(intent.refusal);
  CHECK(devices(intent) == std::vector<std::string>{"7:2"});
}

TEST_CASE("a MIG UUID the host's MIG UUID file does not name is an unknown device", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "MIG-00000000-1111-2222-3333-444455556666"}}),
                         trusting_policy(), with_partition_uuids());
  CHECK(refusal(intent) ==
        "unknown device 'MIG-00000000-1111-2222-3333-444455556666' in NVIDIA_VISIBLE_DEVICES "
        "(no MIG partition of this host has that UUID)");
}

TEST_CASE("the old MIG-GPU-<uuid>/<gi>/<ci> name grants that partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "MIG-" + kUuids[7] + "/2/0"}});
  CHECK(devices(intent) == std::vector<std::string>{"7:1"});
}

// ---------------------------------------------------------------------------
// MIG management

TEST_CASE("NVIDIA_MIG_CONFIG_DEVICES=all grants mig-config to a privileged container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK_FALSE(intent.refusal);
  CHECK(extras(intent) == std::vector<std::string>{"mig-config"});
  CHECK(intent.extras[0].reason.text == "NVIDIA_MIG_CONFIG_DEVICES=all");
}

TEST_CASE("NVIDIA_MIG_MONITOR_DEVICES=all grants mig-monitor to a privileged container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "all"}, {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(extras(intent) == std::vector<std::string>{"mig-monitor"});
}

TEST_CASE("MIG config and monitor together grant both extras", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"},
                              {"NVIDIA_MIG_CONFIG_DEVICES", "all"},
                              {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(extras(intent) == std::vector<std::string>{"mig-config", "mig-monitor"});
}

TEST_CASE("MIG config in an unprivileged container is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK(refusal(intent) ==
        "cannot set NVIDIA_MIG_CONFIG_DEVICES in an unprivileged container (MIG management needs "
        "CAP_SYS_ADMIN)");
  CHECK(intent.extras.empty());
}

TEST_CASE("MIG monitor in an unprivileged container is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK(refusal(intent) ==
        "cannot set NVIDIA_MIG_MONITOR_DEVICES in an unprivileged container (MIG management needs "
        "CAP_SYS_ADMIN)");
}

TEST_CASE("MIG management with a value other than all is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_MONITOR_DEVICES", "7"}},
                             /*privileged=*/true);
  CHECK(refusal(intent) == "invalid NVIDIA_MIG_MONITOR_DEVICES '7': only 'all' is supported");
}

TEST_CASE("MIG management cannot be combined with selecting a MIG partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:0"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(refusal(intent) ==
        "NVIDIA_MIG_CONFIG_DEVICES=all cannot be combined with selecting MIG devices (7:0)");
}

TEST_CASE("MIG management variables are ignored when the container is not injected", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK_FALSE(intent.refusal);
  CHECK(intent.extras.empty());
}
