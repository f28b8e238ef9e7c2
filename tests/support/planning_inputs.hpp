// SPDX-License-Identifier: Apache-2.0
// The other inputs of make_plan, written in code beside InventoryBuilder: a
// small vendor-neutral policy, an Intent granting GPUs and capability sets,
// and queries over the Plan that comes out. For pure planner tests: no
// files, no root.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "intent/intent.hpp"
#include "inventory_builder.hpp"
#include "plan_queries.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft::test {

// Device classes: "control" (/dev/gpuctl, required), "uvm" (/dev/gpu-uvm,
// optional), "gpu" (/dev/gpu{minor}, per GPU), "caps" (/dev/gpu-caps/cap{minor},
// per partition, major "gpu-caps"). Capability sets: "base" (always:
// control), "compute" (libgpu-compute.so, uvm, the gpu-smi binary, the
// libgpu-compute.so development link), "utility" (libgpu-ml.so, gpu-smi),
// "video" (libgpu-video.so, pulls compute.libraries), "compat32" (32-bit
// copies), "ipc" (a socket and a pipe directory), "firmware", "config".
// procfs mask at /proc/driver/gpu, GPU dirs gpus/{bus_id}. Extra
// "partition-config": cap "config", every partition cap, two directory binds.
Policy planning_policy();

// An intent that injects: the GPUs by index (whole GPUs) and the capability
// sets by name, each with a reason naming it.
Intent granting(std::initializer_list<unsigned> gpus, std::initializer_list<const char*> sets);

// An audit request: no rootfs, so the image layout is unknown.
Request audit_request();

// The usual test host for planning_policy(): driver 1.0, GPUs at minors 0
// and 1 (buses 0000:01:00.0 and 0000:02:00.0), the control, uvm and GPU
// nodes on major 195 (uvm 510), and every file the policy's sets name.
InventoryBuilder planning_host();

// make_plan's plan for these inputs; a planning error fails the test.
Plan planned(const Inventory& inventory, const Intent& intent, const Policy& policy = planning_policy(),
             const Request& request = audit_request());

}  // namespace graft::test
