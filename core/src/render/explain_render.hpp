// SPDX-License-Identifier: Apache-2.0
// `graft plan --explain`: every rule of one evaluation in the order it ran
// (phase by phase), with where it is defined, what it read through the views
// and what it changed, or that it failed, or was not reached after a refusal
// or a failure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/evaluate_rules.hpp"

namespace graft {

// `activity` in registration order, as evaluate_rules fills it; stably
// sorted by phase, which is the order the rules ran in.
std::vector<RuleActivity> in_run_order(std::vector<RuleActivity> activity);

// Sorts as in_run_order does.
std::string render_explain_text(const std::vector<RuleActivity>& activity);
nlohmann::json render_explain_json(const std::vector<RuleActivity>& activity);

}  // namespace graft
