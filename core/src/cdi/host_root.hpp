// SPDX-License-Identifier: Apache-2.0
// Generating a host's CDI spec from a view of it mounted elsewhere: a node
// agent's pod sees the node under /host. Discovery reads under the mount,
// but a spec is read by the node's runtime, so every path it names must be
// the host's own. A path that does not lie under the mount is an error,
// never written: it would name a file of the generator's view.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"

namespace graft::cdi {

// The roots to read the host through: each of `roots` under `host_root`.
HostRoots roots_under(const HostRoots& roots, const std::string& host_root);

// `seen` (absolute, under `host_root`) as the host names it:
// ("/host", "/host/usr/lib/x") -> "/usr/lib/x". A `host_root` of "" or "/"
// leaves the path as it is.
Result<std::string> path_on_host(const std::string& host_root, const std::string& seen);

// The plan with every host path it names (device and bind sources, procfs
// mask sources) as the host names it.
Result<Plan> plan_on_host(Plan plan, const std::string& host_root);

}  // namespace graft::cdi
