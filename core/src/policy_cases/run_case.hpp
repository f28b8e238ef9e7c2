// SPDX-License-Identifier: Apache-2.0
// Running one policy test case: its request and synthetic host through the
// same rules and planner `graft plan` uses (evaluate_rules, make_plan), with
// rule activity recorded for coverage. Pure: nothing but the policy's rule
// files is read.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "policy_cases/policy_case.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

struct CaseRun {
  Plan plan;
  std::vector<RuleActivity> activity;  // one per registered rule
};

// Errors (a rule failing at run time, a plan that cannot be made) name the case's file.
Result<CaseRun> run_case(const PolicyCase& policy_case, const Policy& policy);

// A rule's activity over many cases: whether it ran in any, and changed anything in any.
struct RuleCoverage {
  std::string name;
  Origin origin;
  bool ran = false;
  bool changed = false;
};

// Folds one run's activity into `coverage` (rules matched by position: every
// run of one policy registers the same rules in the same order).
void add_coverage(const std::vector<RuleActivity>& activity, std::vector<RuleCoverage>& coverage);

}  // namespace graft
