// SPDX-License-Identifier: Apache-2.0
// The planner: turns an Intent into a Plan against the Inventory, expanding
// capability sets into concrete files and nodes. Pure: it reads nothing from
// the host; everything it needs is in its arguments.
#pragma once

#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft {

Result<Plan> make_plan(const Request& request, const Inventory& inventory, const Policy& policy,
                       const Intent& intent);

}  // namespace graft
