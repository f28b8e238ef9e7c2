// SPDX-License-Identifier: Apache-2.0
// `graft policy check` as data: every finding about one loaded policy, in
// report order: the files loaded, whether the rule files load, each sample's
// outcome and the rules no sample exercised, what the hook needs of the
// host, and the host roots (inventory/root_check.hpp). `graft policy check`
// prints them; `graft policy install` checks a new policy with the same
// findings. check_verdict (finding.hpp) decides.
#pragma once

#include <vector>

#include "policy/policy.hpp"
#include "policy_check/finding.hpp"

namespace graft {

struct CheckOptions {
  bool offline = false;  // the policy alone: nothing of the host is looked at
};

std::vector<CheckFinding> check_policy(const Policy& policy, const CheckOptions& options);

}  // namespace graft
