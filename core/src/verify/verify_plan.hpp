// SPDX-License-Identifier: Apache-2.0
// `graft verify`: a Plan held against the running container it was applied
// to. Each action goes to its plugin's verify (plugin.h, ABI 1.3), in plan
// order, from graft's own mount namespace: the container's root is its
// init's /proc/<pid>/root, opened O_PATH and confirmed through the pidfd, and
// plugins look inside it only with resolve_in_root. Nothing is changed:
// repair (a separate flag, where safe and idempotent) is not implemented.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "apply/container_process.hpp"
#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "plugin_host/plugin_set.hpp"

namespace graft {

// One line of `graft verify`: an action the container no longer has as
// planned, or one its plugin cannot tell about.
struct Drift {
  ActionKind kind = ActionKind::bind_mount;
  std::string target;
  bool unknown = false;  // the plugin cannot tell (found says why)
  std::string expected;
  std::string found;
  Provenance provenance;
};

struct VerifyReport {
  std::vector<Drift> drifts;  // in plan order
  std::size_t held = 0;       // actions checked and found as planned
  std::map<ActionKind, std::size_t> not_checked;  // actions no plugin checks, by kind

  // Whether anything differs or cannot be told: `graft verify` exits 1.
  bool drifted() const { return !drifts.empty(); }
};

struct VerifySite {
  std::string container_id;
  const ContainerProcess& process;
  std::string source_root = "/";  // [host] driver_root, as for apply
};

// Asks every action's plugin. An error (no plugin for an action, a plugin
// that fails, the container exiting meanwhile) stops it: the report would
// be incomplete.
Result<VerifyReport> verify_plan(const Plan& plan, PluginSet& plugins, const VerifySite& site);

}  // namespace graft
