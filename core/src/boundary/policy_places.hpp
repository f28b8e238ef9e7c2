// SPDX-License-Identifier: Apache-2.0
// The policy against the boundary, before any host is read: every host path
// the merged policy names for a container or for graft to write, checked
// against the places (boundary.hpp) with the file:line that named it. What
// `graft policy check` reports (and the node agent refuses a ConfigMap on),
// and what the hook refuses a GPU container on: a policy naming a path
// outside the boundary is refused whole, whether or not a plan uses it.
// Templates ({minor}, {name}, {driver_version}) stand for any name.
#pragma once

#include <string>
#include <vector>

#include "boundary/boundary.hpp"
#include "policy/origin.hpp"
#include "policy/policy.hpp"

namespace graft {

struct BoundaryFinding {
  Origin origin;     // where the policy names the path; empty for graft's default
  std::string key;   // "capability.x.ipc"
  std::string path;  // as checked: normalised, templates as "*"
  std::string what;  // "a socket or IPC directory", "a device node", ...
};

// "<file:line:col>: <key>: <path> is <what> outside the boundary: ..."
std::string to_line(const BoundaryFinding& finding);

std::vector<BoundaryFinding> policy_paths_outside(const Policy& policy, const Boundary& boundary);

// The claim directory and the audit log, where graft writes as root, when
// outside every state directory.
std::vector<BoundaryFinding> state_paths_outside(const Policy& policy, const Places& places);

// Site files that declared [vendor.NAME.places], which only a shipped
// policy may: each is ignored, and `policy check` says so.
std::vector<BoundaryFinding> site_declared_places(const Policy& policy);

// The first finding of policy_paths_outside as an error, but the audit
// log's, which `policy check` and the node agent hold to the boundary and
// the hook does not yet: graft-runtime and the CDI spec's hooks have no way
// to name the node's allow file (docs/security.md, "The policy boundary").
// ok when none.
Status check_policy_places(const Policy& policy, const Boundary& boundary);

}  // namespace graft
