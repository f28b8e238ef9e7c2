// SPDX-License-Identifier: Apache-2.0
// RulePhase: when a rule runs. Rules run phase by phase, and in registration
// order within a phase, so a site's restriction always sees what the vendor's
// reading of the request granted, whatever order the policy files were
// included in, and what is derived from the grant is computed once it is final.
#pragma once

#include <optional>
#include <string_view>

namespace graft::rules {

enum class RulePhase {
  request,   // read the request: inject or skip, grant GPUs and capabilities
  restrict,  // site policy: narrow, drop, deny, add extras (the default)
  derive,    // files and env computed from the final grant
  check,     // requirements that can only refuse
};

inline constexpr RulePhase kRulePhases[] = {RulePhase::request, RulePhase::restrict, RulePhase::derive,
                                            RulePhase::check};

std::string_view phase_name(RulePhase phase);
std::optional<RulePhase> phase_named(std::string_view name);

// request and restrict rules may change what is granted; derive and check
// rules run once it is final and may only add files, env, notes or a refusal.
inline bool phase_changes_grant(RulePhase phase) {
  return phase == RulePhase::request || phase == RulePhase::restrict;
}

}  // namespace graft::rules
