// SPDX-License-Identifier: Apache-2.0
// Checks that only make sense on the merged policy: names that refer to other
// tables (defaults, pulls, devices) may be defined in a different file.
#pragma once

#include "policy/policy.hpp"

namespace graft::policy_parse {

Status validate_policy(const Policy& policy);

}  // namespace graft::policy_parse
