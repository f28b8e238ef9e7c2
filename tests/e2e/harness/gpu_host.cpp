// SPDX-License-Identifier: Apache-2.0
#include "gpu_host.hpp"

#include <fstream>
#include <stdexcept>

#include "site_policy.hpp"

namespace graft::e2e {
namespace {

std::string audit_path(const fixture::FakeHost& host) { return host.path("/audit.jsonl"); }

// The fixture's site policy (`include`, every host root at the fake host)
// under another name, with `extra` after the include.
std::string write_policy_for(const fixture::FakeHost& host, const std::string& name, const std::string& include,
                             const std::string& extra) {
  std::string path = host.path("/etc/graft/" + name + ".toml");
  std::string root = host.root();
  std::ofstream out(path);
  out << "include = [\"" << include << "\"]\n"
      << extra << "\n\n[host]\n"
      << "driver_root = \"" << root << "\"\ndev_root = \"" << root << "\"\nproc_root = \"" << root
      << "\"\nsys_root = \"" << root << "\"\nrun_root = \"" << root << "\"\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace

GpuHost& gpu_host() {
  static GpuHost host = [] {
    auto spec = fixture::FakeHostSpec::with_gpus(8);
    spec.imex_channels = {0, 1};  // for the IMEX and feature cases (device_classes_test.cpp)
    spec.with_feature_nodes = true;
    spec.with_drm = true;
    auto fake = fixture::FakeHost::build(spec);
    std::string audit = audit_path(fake);
    // Writes <root>/etc/graft/graft.toml, which the policies below sit next to.
    std::string policy = fixture::write_site_policy(
        fake, "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[audit]\nlog = \"" + audit + "\"\n");
    return GpuHost{std::move(fake), audit, policy};
  }();
  return host;
}

std::string write_policy(const std::string& name, const std::string& extra) {
  auto& host = gpu_host();
  return write_policy_for(host.host, name, fixture::source_policy_dir() + "/nvidia/nvidia.toml",
                          extra + "\n[audit]\nlog = \"" + host.audit_log + "\"\n");
}

std::string write_installed_policy(const std::string& name) {
  auto& host = gpu_host();
  return write_policy_for(host.host, name, "nvidia", "\n[audit]\nlog = \"" + host.audit_log + "\"\n");
}

std::vector<nlohmann::json> audit_records(const std::string& id, const std::string& outcome) {
  return audit_records_in(gpu_host().audit_log, id, outcome);
}

std::vector<nlohmann::json> audit_records_in(const std::string& log, const std::string& id,
                                             const std::string& outcome) {
  std::vector<nlohmann::json> records;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    auto record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded()) continue;
    if (record.value("id", "") == id && record.value("outcome", "") == outcome)
      records.push_back(std::move(record));
  }
  return records;
}

}  // namespace graft::e2e
