// SPDX-License-Identifier: Apache-2.0
// `graft policy show KEY`: one dotted key of the merged policy
// ("requests.unprivileged", "data.tenants.team-a") with its value as
// written, where it was set and what it overrode (the earlier file and
// value); a table ("requests") with every key under it. A key no file sets
// is graft's default, said so; an unknown key is an error with a did-you-mean.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "policy/policy.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

Result<std::string> render_policy_key_text(const Policy& policy, const std::vector<RuleActivity>& rules,
                                           const std::string& key);
Result<std::string> render_policy_key_json(const Policy& policy, const std::vector<RuleActivity>& rules,
                                           const std::string& key);

}  // namespace graft
