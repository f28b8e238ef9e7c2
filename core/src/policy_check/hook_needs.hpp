// SPDX-License-Identifier: Apache-2.0
// What `graft hook` needs of the host before it can start any container,
// checked by `graft policy check` so that a missing piece fails the check and
// not every container: the directory of `[audit] log` (the hook opens the log
// before it evaluates anything), the plugins the policy loads (each opened,
// vetted, dlopen'ed and initialised with its [plugins.config] as the hook does),
// and the runtime `[runtime] path` names for graft-runtime.
#pragma once

#include <vector>

#include "policy/policy.hpp"
#include "policy_check/finding.hpp"

namespace graft {

// Every finding, or with `offline` one line saying that none of this was checked.
std::vector<CheckFinding> check_hook_needs(const Policy& policy, bool offline);

}  // namespace graft
