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
  enum class Kind {
    outside,       // a path for containers outside the vendors' and the node's places
    state,         // a directory graft writes into, under none of its state directories
    not_a_name,    // a procfs copy entry that is a path, not a file name
    site_places,   // a site file's [vendor.NAME.places], ignored
  };
  Kind kind = Kind::outside;
  Origin origin;     // where the policy names the path; empty for graft's default
  std::string key;   // "capability.x.ipc"
  std::string path;  // as checked: normalised, templates as "*"
  std::string what;  // "a socket or IPC directory", "a device node", ...
};

// "<file:line:col>: <key>: <path> is <what> outside the policy boundary: ..."
std::string to_line(const BoundaryFinding& finding);

// Every path the policy names outside the boundary, the audit log's
// included: what `graft policy check` reports.
std::vector<BoundaryFinding> policy_paths_outside(const Policy& policy, const Boundary& boundary);

// Site files that declared [vendor.NAME.places], which only a shipped
// policy may: each is ignored, and `policy check` says so.
std::vector<BoundaryFinding> site_declared_places(const Policy& policy);

// The first path outside the boundary that a GPU container's evaluation
// depends on, as an error; ok when none. The audit log's place is left to
// `policy check` and the node agent: graft-runtime and the CDI spec's hooks
// have no way yet to name the node's allow file (docs/security.md, "The
// policy boundary").
Status check_policy_places(const Policy& policy, const Boundary& boundary);

}  // namespace graft
