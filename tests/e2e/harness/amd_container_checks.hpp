// SPDX-License-Identifier: Apache-2.0
// What "an AMD container got exactly what graft plan printed" means, as
// Catch2 checks over a ProbedContainer whose script made amd_device_probes():
// shared by the runc (cgroup v1 and v2), graft-runtime and podman CDI cases.
#pragma once

#include "probed_container.hpp"

namespace graft::e2e {

// What opening a fake node of `major` says inside: ENXIO where the host's
// kernel has no driver there; else that driver answers, and only the
// device cgroup's refusal (EPERM) or a missing node would be wrong.
void check_opens_past_the_cgroup(const ProbedContainer& container, const std::string& path, unsigned major);

// The plan grants GPU 1 alone, by the fake host's bus id.
void check_amd_gpu1_planned(const ProbedContainer& container);

// /dev/kfd and GPU 1's renderD129 open as far as the absent driver lets
// them (ENXIO, not EPERM); GPU 0's renderD128 and both card nodes are
// absent, and renderD128 made by hand is refused by the device cgroup
// (EPERM); the planned nodes carry the planned numbers.
void check_amd_gpu1_devices(const ProbedContainer& container);

// Every planned target is there, the AMD nodes in /dev are exactly the
// planned ones, and nothing came into the library directory.
void check_exactly_the_planned_amd_targets(const ProbedContainer& container);

// amd_rocm_host()'s container: each host ROCm library is mounted read-only
// with its soname link, `ldconfig -p` lists each soname, and the library
// directory holds those and nothing else.
void check_host_rocm_libraries(const ProbedContainer& container);

// AMD_VISIBLE_DEVICES=none, a GPU container without GPUs: /dev/kfd alone
// (opening past the device cgroup), no DRM node, and the hook applied that plan.
void check_kfd_alone(const ProbedContainer& container);

// A container that is no AMD GPU container (the variable unset, or `void`)
// ran and got no kfd, no DRM node and no audit record of an applied plan.
void check_given_no_amd_gpu(const ProbedContainer& container);

}  // namespace graft::e2e
