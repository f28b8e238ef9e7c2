// SPDX-License-Identifier: Apache-2.0
// Phase names as rule files write them: rule("name", "derive", fn).
#include "rules/rule_phase.hpp"

namespace graft::rules {

std::string_view phase_name(RulePhase phase) {
  switch (phase) {
    case RulePhase::request: return "request";
    case RulePhase::restrict: return "restrict";
    case RulePhase::derive: return "derive";
    case RulePhase::check: return "check";
  }
  return "restrict";
}

std::optional<RulePhase> phase_named(std::string_view name) {
  for (RulePhase phase : kRulePhases)
    if (phase_name(phase) == name) return phase;
  return std::nullopt;
}

}  // namespace graft::rules
