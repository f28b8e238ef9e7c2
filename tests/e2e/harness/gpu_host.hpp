// SPDX-License-Identifier: Apache-2.0
// The host side of every end-to-end test: a fake 8-GPU NVIDIA host (driver
// libraries, ld.so.cache, procfs, real device nodes, IMEX channels 0 and 1,
// the feature-gated nodes, DRM nodes found through sysfs) and a site policy that
// points at it, at the plugins built in this tree, and at an audit log.
// Built once per test process (ctest runs each case in its own process).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"

namespace graft::e2e {

// The fake host's GPU count, and what opening one of its GPU nodes says: the
// nodes are real, but no driver is behind them.
inline constexpr unsigned kFakeGpus = 8;
inline constexpr const char* kENXIO = "No such device or address";

// "/a/b/c" -> "/a/b".
inline std::string parent_dir(const std::string& path) { return path.substr(0, path.rfind('/')); }

struct GpuHost {
  fixture::FakeHost host;
  std::string audit_log;
  std::string policy;  // [plugins] dir = the build tree's plugin directory
};

GpuHost& gpu_host();

// Another policy for the same host: vendor include, host roots, the audit
// log, and `extra` TOML (which must set [plugins] dir itself).
std::string write_policy(const std::string& name, const std::string& extra);

// The same for an installed graft: the vendor policy included by name and
// no [plugins] dir, so the graft reading it takes the policy and the plugins
// installed beside it.
std::string write_installed_policy(const std::string& name);

// The audit records written for container `id` with the given outcome
// ("applied", "planned", "error", ...).
std::vector<nlohmann::json> audit_records(const std::string& id, const std::string& outcome);

// The same from the audit log at `log` (another fake host's).
std::vector<nlohmann::json> audit_records_in(const std::string& log, const std::string& id,
                                             const std::string& outcome);

}  // namespace graft::e2e
