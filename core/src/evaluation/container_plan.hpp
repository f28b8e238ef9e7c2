// SPDX-License-Identifier: Apache-2.0
// One evaluation of one container: Policy + Request -> Inventory -> Intent ->
// Plan, timing each phase for the audit log. `graft plan` renders the result,
// `graft hook` applies it; both get it from here so they cannot drift apart.
#pragma once

#include "graft/base/error.hpp"
#include "inventory/inventory.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

struct PhaseTimes {
  double inventory_ms = 0;
  double rules_ms = 0;
  double plan_ms = 0;
  double total_ms = 0;
};

struct ContainerPlan {
  Inventory inventory;
  Plan plan;
  PhaseTimes times;
};

// A plan that gives a container anything (plan.inject) from a policy naming
// a host path outside the policy boundary, or that binds or makes one on
// this host, is refused (boundary/): whatever route reached the container.
Status check_boundary(const Plan& plan, const Inventory& inventory, const Policy& policy);

// Errors come back prefixed with the container id. With `explain`, what each
// rule read and changed (`graft plan --explain`); the hook passes none.
Result<ContainerPlan> plan_container(const Request& request, const Policy& policy,
                                     std::vector<RuleActivity>* explain = nullptr);

}  // namespace graft
