// SPDX-License-Identifier: Apache-2.0
#include "planning_inputs.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "plan/planner.hpp"

namespace graft::test {
namespace {

Origin at(int line) { return Origin{"test-policy.toml", line, 1}; }

SourcedString sourced(std::string value, int line) { return {std::move(value), at(line)}; }

void add_devices(Policy& policy) {
  policy.devices["control"] = {.name = "control", .path = "/dev/gpuctl", .required = true, .origin = at(1)};
  policy.devices["uvm"] = {.name = "uvm", .path = "/dev/gpu-uvm", .origin = at(2)};
  policy.devices["gpu"] = {.name = "gpu", .path = "/dev/gpu{minor}", .per = DeviceClass::Per::gpu, .origin = at(3)};
  policy.devices["caps"] = {.name = "caps",
                            .path = "/dev/gpu-caps/cap{minor}",
                            .per = DeviceClass::Per::partition,
                            .major_name = "gpu-caps",
                            .origin = at(4)};
}

void add_capability_sets(Policy& policy) {
  auto& sets = policy.capabilities;
  sets["base"] = {.name = "base", .origin = at(10), .always = true, .devices = {sourced("control", 11)}};
  sets["compute"] = {.name = "compute",
                     .origin = at(12),
                     .libraries = {sourced("libgpu-compute.so", 13)},
                     .binaries = {sourced("gpu-smi", 14)},
                     .devices = {sourced("uvm", 15)},
                     .symlinks = {{"libgpu-compute.so", "libgpu-compute.so.1", at(16)}}};
  sets["utility"] = {.name = "utility",
                     .origin = at(17),
                     .libraries = {sourced("libgpu-ml.so", 18)},
                     .binaries = {sourced("gpu-smi", 19)}};
  sets["video"] = {.name = "video",
                   .origin = at(20),
                   .libraries = {sourced("libgpu-video.so", 21)},
                   .pulls = {sourced("compute.libraries", 22)}};
  sets["compat32"] = {.name = "compat32", .origin = at(23), .lib32 = true};
  sets["ipc"] = {.name = "ipc",
                 .origin = at(24),
                 .ipc = {sourced("/run/gpu/socket", 25), sourced("/tmp/gpu-pipes", 26)}};
  sets["firmware"] = {.name = "firmware", .origin = at(27), .firmware = {sourced("gpu/*.bin", 28)}};
  sets["config"] = {.name = "config", .origin = at(29), .config_files = {sourced("/etc/gpu/icd.json", 30)}};
}

}  // namespace

Policy planning_policy() {
  Policy policy;
  add_devices(policy);
  add_capability_sets(policy);
  policy.procfs = {.path = "/proc/driver/gpu",
                   .copy = {"version", "params"},
                   .rewrites = {{"params", "ModifyDeviceFiles: 1", "ModifyDeviceFiles: 0"}},
                   .gpu_dir = "gpus/{bus_id}",
                   .origin = at(40)};
  policy.discovery.partition_minors = "/proc/driver/gpu-caps/minors";
  policy.discovery.partition_gi_key = "gpu{minor}/gi{gi}/access";
  policy.discovery.partition_ci_key = "gpu{minor}/gi{gi}/ci{ci}/access";
  policy.extras["partition-config"] = {.name = "partition-config",
                                       .origin = at(50),
                                       .caps = {"config"},
                                       .all_partition_caps = true,
                                       .bind_proc = {"/proc/driver/gpu/capabilities"},
                                       .bind_dev = {"/dev/gpu-caps"}};
  return policy;
}

Intent granting(std::initializer_list<unsigned> gpus, std::initializer_list<const char*> sets) {
  Intent intent;
  intent.inject = true;
  for (unsigned gpu : gpus)
    intent.devices.push_back({.gpu = gpu, .reason = {fmt::format("GPU {} asked for", gpu), {"rules.lua", 1, 1}}});
  for (const char* set : sets)
    intent.capabilities.push_back({set, {std::string(set) + " asked for", {"rules.lua", 2, 1}}});
  return intent;
}

Request audit_request() {
  Request request;
  request.container_id = "audit";
  return request;
}

InventoryBuilder planning_host() {
  InventoryBuilder host;
  host.gpu(0, "0000:01:00.0")
      .gpu(1, "0000:02:00.0")
      .node("/dev/gpuctl", 195, 255)
      .node("/dev/gpu-uvm", 510, 0)
      .node("/dev/gpu0", 195, 0)
      .node("/dev/gpu1", 195, 1)
      .library("libgpu-compute.so", "/usr/lib/libgpu-compute.so.1.0", "libgpu-compute.so.1")
      .library("libgpu-compute.so", "/usr/lib32/libgpu-compute.so.1.0", "libgpu-compute.so.1", true)
      .library("libgpu-ml.so", "/usr/lib/libgpu-ml.so.1.0", "libgpu-ml.so.1")
      .library("libgpu-video.so", "/usr/lib/libgpu-video.so.1", "libgpu-video.so.1")
      .binary("gpu-smi", "/usr/bin/gpu-smi")
      .ipc("/run/gpu/socket", "/run/gpu/socket")
      .ipc("/tmp/gpu-pipes", "/tmp/gpu-pipes", /*directory=*/true)
      .firmware("gpu/*.bin", "/lib/firmware/gpu/gsp.bin", "/lib/firmware/gpu/gsp.bin")
      .config_file("/etc/gpu/icd.json", "/etc/gpu/icd.json");
  return host;
}

Plan planned(const Inventory& inventory, const Intent& intent, const Policy& policy,
             const Request& request) {
  auto plan = make_plan(request, inventory, policy, intent);
  if (!plan) FAIL("make_plan: " << plan.error().message);
  return *plan;
}

}  // namespace graft::test
