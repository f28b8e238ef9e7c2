// SPDX-License-Identifier: Apache-2.0
// Vendors on one host: which GPU sources a policy has ([discovery]'s unnamed
// one and each [vendor.NAME]), and which vendor a set, class or GPU belongs
// to. A thing of vendor "" belongs to every vendor.
#pragma once

#include <string>
#include <vector>

#include "policy/policy.hpp"

namespace graft {

struct GpuSource {
  std::string vendor;              // "" for [discovery]'s own
  const GpuDiscovery* discovery;   // points into the Policy
};

// In GPU index order: the unnamed source (when it finds anything, or when
// the policy has no vendor), then every [vendor.NAME] as first defined.
std::vector<GpuSource> gpu_sources(const Policy& policy);

// The GPU keys of `vendor`; [discovery]'s for "" or a vendor the policy lacks.
const GpuDiscovery& gpu_discovery_of(const Policy& policy, const std::string& vendor);

// Whether a set, class or [procfs] of `owner` serves a GPU or container of
// `vendor`: the same vendor, or an owner of none.
inline bool serves_vendor(const std::string& owner, const std::string& vendor) {
  return owner.empty() || owner == vendor;
}

}  // namespace graft

namespace graft::policy_parse {

// Every `vendor = "NAME"` names a [vendor.NAME]; with vendors, [discovery]
// has no GPU keys of its own; a vendor has one per-GPU and one per-partition class.
Status check_vendors(const Policy& policy);

}  // namespace graft::policy_parse
