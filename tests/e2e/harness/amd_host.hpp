// SPDX-License-Identifier: Apache-2.0
// The AMD side of the end-to-end tests: a fake host with two AMD GPUs (kfd
// topology, PCI sysfs, real /dev/kfd and /dev/dri nodes), a site policy that
// includes the shipped amd policy and points it at that host, at the plugins
// built in this tree and at an audit log of its own (and the same policy
// with graft-runtime's [runtime] mode named), and the /dev probes a check
// script makes in an AMD container. Built once per test process.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fake_amd_host.hpp"
#include "oci_bundle.hpp"
#include "plan_probe.hpp"

namespace graft::e2e {

inline constexpr unsigned kFakeAmdGpus = 2;

struct AmdHost {
  fixture::FakeAmdHost host;
  std::string audit_log;
  std::string policy;  // include the amd policy; [plugins] dir = the build tree's
};

AmdHost& amd_host();

// Another such host with host ROCm's libraries in its ld.so.cache, whose
// policy lists "amd-host-rocm" in [data.amd] capabilities.
AmdHost& amd_rocm_host();

// amd_host()'s policy with `[runtime] mode = MODE` ("hook", "declarative"),
// for graft-runtime: <root>/etc/graft/runtime-MODE.toml, the same audit log.
std::string amd_runtime_policy(const std::string& mode);

// Why a fake AMD host cannot back a container here ("" when it can): its
// ld.so.cache or its device nodes could not be made.
std::string amd_host_skip_reason(const AmdHost& host = amd_host());

// /dev/kfd and /dev/dri/* listed; kfd, both render and both card nodes
// opened by name; GPU 0's render node made by hand.
const DeviceProbes& amd_device_probes();

// A container asking for AMD GPUs `visible` ("1", "none"; "" asks for
// none at all), with graft as its prestart hook under `host`'s policy.
BundleSpec amd_bundle(const std::string& visible, const AmdHost& host = amd_host());

// The audit records `host`'s policy wrote for container `id`.
std::vector<nlohmann::json> amd_audit_records(const std::string& id, const std::string& outcome,
                                              const AmdHost& host = amd_host());

// Whether the host's kernel has a character driver at `major` (its
// /proc/devices): without one, a node of that major opens with ENXIO.
bool host_has_char_driver(unsigned major);

// kfd's major is dynamic; a fake /dev/kfd's must be one the host's kernel
// has no driver at, or opening it would reach that driver.
unsigned free_kfd_major();

}  // namespace graft::e2e
