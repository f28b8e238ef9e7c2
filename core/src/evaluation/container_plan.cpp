// SPDX-License-Identifier: Apache-2.0
#include "evaluation/container_plan.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

#include "boundary/plan_places.hpp"
#include "boundary/policy_places.hpp"
#include "watchdog/running_note.hpp"
#include "plan/planner.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// Runs one phase as the running note, so a deadline passing in it names it.
template <typename Phase>
auto in_phase(const char* name, Phase&& phase) {
  RunningNote note(name);
  return phase();
}

}  // namespace

Status check_boundary(const Plan& plan, const Inventory& inventory, const Policy& policy) {
  if (!plan.inject) return ok_status();
  RunningNote note("checking the plan against the policy boundary");
  Boundary boundary(policy);
  if (auto status = check_policy_places(policy, boundary); !status) return status;
  return check_plan_places(plan, inventory, policy, boundary);
}

Result<ContainerPlan> plan_container(const Request& request, const Policy& policy,
                                     std::vector<RuleActivity>* explain) {
  const std::string where = "container " + request.container_id;
  auto start = Clock::now();
  ContainerPlan evaluation;
  auto inventory = in_phase("inventory", [&] { return discover_inventory(policy); });
  if (!inventory) return inventory.error().context(where);
  evaluation.inventory = std::move(*inventory);
  evaluation.times.inventory_ms = elapsed_ms(start);
  for (const auto& warning : evaluation.inventory.warnings) spdlog::info("{}: {}", where, warning);

  auto rules_start = Clock::now();
  auto intent = in_phase("rules", [&] {
    return evaluate_rules(request, evaluation.inventory, policy, explain, ActivityDetail::explained);
  });
  if (!intent) return intent.error().context(where);
  evaluation.times.rules_ms = elapsed_ms(rules_start);

  auto plan_start = Clock::now();
  auto plan = in_phase("plan", [&] { return make_plan(request, evaluation.inventory, policy, *intent); });
  if (!plan) return plan.error().context(where);
  if (auto status = check_boundary(*plan, evaluation.inventory, policy); !status) return status.error().context(where);
  evaluation.plan = std::move(*plan);
  evaluation.times.plan_ms = elapsed_ms(plan_start);
  evaluation.times.total_ms = elapsed_ms(start);
  spdlog::debug("{}: {} actions; inventory {:.2f} ms, rules {:.2f} ms, plan {:.2f} ms", where,
                evaluation.plan.actions.size(), evaluation.times.inventory_ms,
                evaluation.times.rules_ms, evaluation.times.plan_ms);
  return evaluation;
}

}  // namespace graft
