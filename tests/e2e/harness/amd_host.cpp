// SPDX-License-Identifier: Apache-2.0
#include "amd_host.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "site_policy.hpp"

namespace graft::e2e {

unsigned free_kfd_major() {
  for (unsigned major = 235; major > 200; --major)
    if (!host_has_char_driver(major)) return major;
  throw std::runtime_error("no free character major in 201..235 for the fake /dev/kfd");
}

bool host_has_char_driver(unsigned major) {
  std::ifstream in("/proc/devices");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("Block devices")) break;
    std::istringstream fields(line);
    unsigned listed = 0;
    if (fields >> listed && listed == major) return true;
  }
  return false;
}

namespace {

AmdHost make_amd_host(bool host_rocm) {
  auto spec = fixture::FakeAmdHostSpec::with_gpus(kFakeAmdGpus);
  spec.kfd_major = free_kfd_major();
  spec.with_host_rocm = host_rocm;
  auto fake = fixture::FakeAmdHost::build(spec);
  std::string audit = fake.path("/audit.jsonl");
  std::string extra = "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[audit]\nlog = \"" + audit + "\"\n";
  if (host_rocm) extra += "\n[data.amd]\ncapabilities = [\"amd-host-rocm\"]\n";
  std::string policy = fixture::write_vendor_site_policy_at(fake.root(), "amd", extra);
  return AmdHost{std::move(fake), audit, policy};
}

}  // namespace

AmdHost& amd_host() {
  static AmdHost host = make_amd_host(false);
  return host;
}

AmdHost& amd_rocm_host() {
  static AmdHost host = make_amd_host(true);
  return host;
}

std::string amd_runtime_policy(const std::string& mode) {
  const auto& amd = amd_host();
  std::string path = amd.host.path("/etc/graft/runtime-" + mode + ".toml");
  fixture::write_file(path, fmt::format("include = [\"{0}/amd/amd.toml\"]\n\n"
                                        "[plugins]\ndir = \"{1}\"\n\n[audit]\nlog = \"{2}\"\n\n"
                                        "[runtime]\nmode = \"{3}\"\n\n[host]\n"
                                        "driver_root = \"{4}\"\ndev_root = \"{4}\"\nproc_root = \"{4}\"\n"
                                        "sys_root = \"{4}\"\nrun_root = \"{4}\"\n",
                                        fixture::source_policy_dir(), GRAFT_BUILD_PLUGIN_DIR, amd.audit_log, mode,
                                        amd.host.root()));
  return path;
}

std::string amd_host_skip_reason(const AmdHost& amd) {
  const auto& host = amd.host;
  if (!host.ldcache_problem().empty()) return "the fake AMD host has no ld.so.cache: " + host.ldcache_problem();
  if (host.device_nodes_created()) return "";
  return "the fake AMD host has no device nodes: " + host.device_nodes_problem();
}

const DeviceProbes& amd_device_probes() {
  static const DeviceProbes probes{
      {"/dev/kfd", "/dev/dri/*"},
      {"/dev/null", "/dev/kfd", "/dev/dri/renderD128", "/dev/dri/renderD129", "/dev/dri/card0", "/dev/dri/card1"},
      "/dev/dri/renderD128",
      fixture::kFakeDrmMajor,
      128};
  return probes;
}

BundleSpec amd_bundle(const std::string& visible, const AmdHost& host) {
  BundleSpec spec;
  if (!visible.empty()) spec.env = {"AMD_VISIBLE_DEVICES=" + visible};
  spec.hook_policy = host.policy;
  return spec;
}

std::vector<nlohmann::json> amd_audit_records(const std::string& id, const std::string& outcome,
                                              const AmdHost& host) {
  return audit_records_in(host.audit_log, id, outcome);
}

}  // namespace graft::e2e
