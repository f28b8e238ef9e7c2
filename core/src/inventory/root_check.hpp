// SPDX-License-Identifier: Apache-2.0
// What `graft policy check` checks on the host a policy names, before a
// container needs it: every [host] root is a directory and holds what
// discovery reads there. It only looks (stat, O_PATH opens); discovery
// itself reads the files. Errors are what makes inventory or plan fail or
// find no driver; warnings what a working host often lacks (docs/policy.md,
// "Checking a policy").
#pragma once

#include <string>
#include <vector>

#include "policy/policy.hpp"

namespace graft {

struct RootFinding {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string key;       // the policy key: "host.driver_root", "discovery.ldcache", "device.NAME"
  Origin origin;         // where it was set; empty: graft's default
  std::string root_key;  // the root `path` lies under, "host.proc_root"; "" for a root itself
  Origin root_origin;
  std::string path;      // the host path looked at
  std::string problem;   // "not found", "not a directory", ...
};

// One line, e.g. "discovery.ldcache (default) under host.driver_root
// (/etc/graft/graft.toml:4:15): /run/drivr/etc/ld.so.cache: not found".
std::string describe(const RootFinding& finding);

// Every finding, roots first; nothing under a root that is itself missing.
std::vector<RootFinding> check_host_roots(const Policy& policy);

}  // namespace graft
