// SPDX-License-Identifier: Apache-2.0
// A host of two vendors for the end-to-end tests: the fake NVIDIA host with
// two GPUs (nvidia0, nvidia1) and two fake AMD GPUs added (renderD128,
// renderD129, /dev/kfd), a site policy including both shipped policies and
// pointing at it, the build tree's plugins and an audit log of its own, and
// the /dev probes a check script makes there. Built once per test process.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "oci_bundle.hpp"
#include "plan_probe.hpp"

namespace graft::e2e {

struct TwoVendorHost {
  fixture::FakeHost host;
  std::string amd_problem;  // why the AMD nodes were not made; "" when they were
  unsigned kfd_major = 0;
  std::string audit_log;
  std::string policy;
};

TwoVendorHost& two_vendor_host();

// Why the host cannot back a container here ("" when it can).
std::string two_vendor_host_skip_reason();

// Both vendors' nodes listed and opened by name; AMD GPU 0's render node made by hand.
const DeviceProbes& two_vendor_device_probes();

// A container with `env` ("NVIDIA_VISIBLE_DEVICES=0", ...), graft as its
// prestart hook under two_vendor_host()'s policy.
BundleSpec two_vendor_bundle(const std::vector<std::string>& env);

std::vector<nlohmann::json> two_vendor_audit_records(const std::string& id, const std::string& outcome);

}  // namespace graft::e2e
