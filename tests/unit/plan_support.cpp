#include "plan_support.hpp"

#include "request/request.hpp"

namespace graft::testing {

PlannedHost PlannedHost::make(unsigned gpus, bool mig, const std::string& extra_toml) {
  auto host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(gpus, mig));
  std::string path = fixture::write_site_policy(host, extra_toml);
  auto policy = load_policy(path, PolicySearch{});
  if (!policy) FAIL(policy.error().message);
  return PlannedHost{std::move(host), std::move(*policy)};
}

Result<ContainerPlan> PlannedHost::evaluate(const Env& env, bool privileged) const {
  std::vector<std::string> pairs;
  for (const auto& [name, value] : env) pairs.push_back(name + "=" + value);
  auto request = request_from_flags(pairs, {}, privileged, "");
  if (!request) return request.error();
  return plan_container(*request, policy);
}

Plan PlannedHost::plan(const Env& env, bool privileged) const {
  auto evaluation = evaluate(env, privileged);
  if (!evaluation) FAIL(evaluation.error().message);
  return evaluation->plan;
}

std::vector<std::string> targets(const Plan& plan, ActionKind kind) {
  std::vector<std::string> out;
  for (const auto& action : plan.actions)
    if (action.kind == kind) out.push_back(action.target);
  return out;
}

const Action* find_action(const Plan& plan, ActionKind kind, const std::string& target) {
  for (const auto& action : plan.actions)
    if (action.kind == kind && action.target == target) return &action;
  return nullptr;
}

bool has_target(const Plan& plan, ActionKind kind, const std::string& target) {
  return find_action(plan, kind, target) != nullptr;
}

bool mounts_file(const Plan& plan, const std::string& file) {
  for (const auto& action : plan.actions)
    if (action.kind == ActionKind::bind_mount && action.target.ends_with("/" + file)) return true;
  return false;
}

bool nodes_available(const PlannedHost& host) {
  if (host.host.device_nodes_created()) return true;
  WARN("skipped: device nodes need root (" << host.host.device_nodes_problem() << ")");
  return false;
}

}  // namespace graft::testing
