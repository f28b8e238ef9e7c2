// SPDX-License-Identifier: Apache-2.0
#include "policy/vendors.hpp"

#include <fmt/format.h>

#include "policy/key_reader.hpp"
#include "policy/read_sections.hpp"
#include "policy/toml_field.hpp"

namespace graft {

std::vector<GpuSource> gpu_sources(const Policy& policy) {
  std::vector<GpuSource> sources;
  if (policy.vendors.empty() || policy.discovery.finds_anything()) sources.push_back({"", &policy.discovery});
  for (const auto& name : policy.vendor_order) sources.push_back({name, &policy.vendors.at(name).discovery});
  return sources;
}

const GpuDiscovery& gpu_discovery_of(const Policy& policy, const std::string& vendor) {
  auto found = policy.vendors.find(vendor);
  return found == policy.vendors.end() ? policy.discovery : found->second.discovery;
}

}  // namespace graft

namespace graft::policy_parse {
namespace {

std::vector<std::string_view> vendor_names(const Policy& policy) {
  return {policy.vendor_order.begin(), policy.vendor_order.end()};
}

// `owner`'s `vendor = "..."` (at dotted `key`) names a vendor of the policy.
Status check_named_vendor(const Policy& policy, const std::string& vendor, const std::string& key,
                          const Origin& fallback) {
  if (vendor.empty() || policy.vendors.contains(vendor)) return ok_status();
  auto origin = policy.key_origins.find(key);
  return error_at(origin == policy.key_origins.end() ? fallback : origin->second.origin, key,
                  fmt::format("no [vendor.{}] in this policy{}", vendor, did_you_mean(vendor, vendor_names(policy))));
}

// A policy that names its vendors reads every GPU through them: a GPU key
// left in [discovery] would make a second, unnamed source of half a description.
Status check_no_unnamed_gpu_keys(const Policy& policy) {
  if (policy.vendors.empty()) return ok_status();
  for (auto key : gpu_discovery_keys()) {
    auto origin = policy.key_origins.find(fmt::format("discovery.{}", key));
    if (origin == policy.key_origins.end()) continue;
    return error_at(origin->second.origin, origin->first,
                    fmt::format("a GPU key, but this policy names its vendors: set it in [vendor.{}]",
                                policy.vendor_order.size() == 1 ? policy.vendor_order.front() : "NAME"));
  }
  return ok_status();
}

// One per-GPU (and one per-partition) class serves each vendor's GPUs.
Status check_one_class_per_vendor(const Policy& policy, DeviceClass::Per per, std::string_view what) {
  std::vector<std::string> vendors = policy.vendor_order;
  vendors.insert(vendors.begin(), "");
  for (const auto& vendor : vendors) {
    const DeviceClass* first = nullptr;
    for (const auto& [name, device] : policy.devices) {
      if (device.per != per || !serves_vendor(device.vendor, vendor)) continue;
      if (!first) {
        first = &device;
        continue;
      }
      return error_at(device.origin, fmt::format("device.{}", name),
                      fmt::format("a second per = \"{}\" class for {} GPUs (device.{} is the first): give each "
                                  "its own vendor = \"NAME\"",
                                  what, vendor.empty() ? std::string("the unnamed source's") : vendor, first->name));
    }
  }
  return ok_status();
}

}  // namespace

Status check_vendors(const Policy& policy) {
  for (const auto& [name, set] : policy.capabilities)
    if (auto status = check_named_vendor(policy, set.vendor, fmt::format("capability.{}.vendor", name), set.origin);
        !status)
      return status;
  for (const auto& [name, device] : policy.devices)
    if (auto status = check_named_vendor(policy, device.vendor, fmt::format("device.{}.vendor", name), device.origin);
        !status)
      return status;
  if (auto status = check_named_vendor(policy, policy.procfs.vendor, "procfs.vendor", policy.procfs.origin); !status)
    return status;
  if (auto status = check_no_unnamed_gpu_keys(policy); !status) return status;
  if (auto status = check_one_class_per_vendor(policy, DeviceClass::Per::gpu, "gpu"); !status) return status;
  return check_one_class_per_vendor(policy, DeviceClass::Per::partition, "partition");
}

}  // namespace graft::policy_parse
