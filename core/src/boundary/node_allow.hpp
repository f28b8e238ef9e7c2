// SPDX-License-Identifier: Apache-2.0
// The node's allow file: the only way to widen the policy boundary
// (boundary.hpp). It is the node's, not the policy's: its path comes from
// graft's command line or build, never from a policy file, and it is read
// as a trusted file (root-owned, in root-owned directories). The Kubernetes
// node agent reads the same file for its guarded settings.
//
// One setting per line, `KEY = "VALUE"` with VALUE a JSON string; `#`
// starts a comment. graft reads the `places.KIND` lines, each widening one
// kind of place (policy/places.hpp) by one path or pattern:
//   places.sockets = "/run/acme/agent.sock"
//   places.device_drivers = "xpmem"
// and leaves every other key to the agent.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "policy/places.hpp"
#include "policy/policy.hpp"

namespace graft {

// The allow file's place lines; a missing file (ENOENT only) allows nothing.
Result<Places> read_node_allow(const std::string& path);

// The allow file at `path` as `policy`'s node_places: what each front end
// does once it has loaded the site policy.
Status add_node_allow(Policy& policy, const std::string& path);

// The same, from the file's text; `path` names it in messages and origins.
Result<Places> parse_node_allow(const std::string& text, const std::string& path);

}  // namespace graft
