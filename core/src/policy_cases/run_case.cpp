// SPDX-License-Identifier: Apache-2.0
// run_case: a case's synthetic host built from the policy, then the rules
// (activity recorded) and the planner; add_coverage folds activity together.
#include "policy_cases/run_case.hpp"

#include "inventory/synthetic_inventory.hpp"
#include "plan/planner.hpp"

namespace graft {

Result<CaseRun> run_case(const PolicyCase& policy_case, const Policy& policy) {
  Inventory inventory = synthetic_inventory(policy_case.host, policy);
  CaseRun run;
  auto intent = evaluate_rules(policy_case.request, inventory, policy, &run.activity);
  if (!intent) return intent.error().context(policy_case.file);
  auto plan = make_plan(policy_case.request, inventory, policy, *intent);
  if (!plan) return plan.error().context(policy_case.file);
  run.plan = std::move(*plan);
  return run;
}

void add_coverage(const std::vector<RuleActivity>& activity, std::vector<RuleCoverage>& coverage) {
  if (coverage.empty())
    for (const auto& rule : activity) coverage.push_back({rule.name, rule.origin, false, false});
  for (std::size_t i = 0; i < activity.size() && i < coverage.size(); ++i) {
    coverage[i].ran |= activity[i].ran;
    coverage[i].changed |= activity[i].changed;
  }
}

}  // namespace graft
