// SPDX-License-Identifier: Apache-2.0
#include "plan_support.hpp"

#include "request/request.hpp"
#include "skip.hpp"

namespace graft::testing {

PlannedHost PlannedHost::make(unsigned gpus, bool mig, const std::string& extra_toml) {
  return make(fixture::FakeHostSpec::with_gpus(gpus, mig), extra_toml);
}

PlannedHost PlannedHost::make(const fixture::FakeHostSpec& spec, const std::string& extra_toml) {
  auto host = fixture::FakeHost::build(spec);
  std::string path = fixture::write_site_policy(host, extra_toml);
  auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
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

bool nodes_available(const PlannedHost& host) {
  if (host.host.device_nodes_created()) return true;
  ::graft::test::note_skip("device nodes need root (" + host.host.device_nodes_problem() + ")");
  return false;
}

}  // namespace graft::testing
