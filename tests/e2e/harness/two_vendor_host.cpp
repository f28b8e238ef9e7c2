// SPDX-License-Identifier: Apache-2.0
#include "two_vendor_host.hpp"

#include "amd_host.hpp"
#include "fake_amd_host.hpp"
#include "gpu_host.hpp"
#include "site_policy.hpp"

namespace graft::e2e {
TwoVendorHost& two_vendor_host() {
  static TwoVendorHost host = [] {
    auto fake = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2));
    auto amd = fixture::FakeAmdHostSpec::with_gpus(2);
    amd.kfd_major = free_kfd_major();
    std::string problem = fixture::add_fake_amd_gpus(fake.root(), amd);
    std::string audit = fake.path("/audit.jsonl");
    std::string policy = fixture::write_vendor_site_policy_at(
        fake.root(), "nvidia,amd",
        "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[audit]\nlog = \"" + audit + "\"\n");
    return TwoVendorHost{std::move(fake), problem, amd.kfd_major, audit, policy};
  }();
  return host;
}

std::string two_vendor_host_skip_reason() {
  const auto& host = two_vendor_host();
  if (!host.host.ldcache_created()) return "the fake host has no ld.so.cache: " + host.host.ldcache_problem();
  if (!host.host.device_nodes_created()) return "the fake host has no device nodes: " + host.host.device_nodes_problem();
  if (!host.amd_problem.empty()) return "the fake AMD GPUs have no device nodes: " + host.amd_problem;
  return "";
}

const DeviceProbes& two_vendor_device_probes() {
  static const DeviceProbes probes{
      {"/dev/nvidia*", "/dev/kfd", "/dev/dri/*"},
      {"/dev/null", "/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl", "/dev/kfd", "/dev/dri/renderD128",
       "/dev/dri/renderD129"},
      "/dev/dri/renderD128",
      fixture::kFakeDrmMajor,
      128};
  return probes;
}

BundleSpec two_vendor_bundle(const std::vector<std::string>& env) {
  BundleSpec spec;
  spec.env = env;
  spec.hook_policy = two_vendor_host().policy;
  return spec;
}

std::vector<nlohmann::json> two_vendor_audit_records(const std::string& id, const std::string& outcome) {
  return audit_records_in(two_vendor_host().audit_log, id, outcome);
}

}  // namespace graft::e2e
