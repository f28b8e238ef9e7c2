// SPDX-License-Identifier: Apache-2.0
// The front ends' handle on the site policy (graft/engine/site_policy.hpp):
// loading with the shipped policies searched last, and the settings a front
// end acts on by itself.
#include "graft/engine/site_policy.hpp"

#include "boundary/node_allow.hpp"
#include "graft/engine/install_dirs.hpp"
#include "policy/policy.hpp"
#include "watchdog/running_note.hpp"

namespace graft {

std::uint64_t SitePolicy::deadline_ms() const { return policy_->limits.deadline_ms; }

const std::string& SitePolicy::runtime_path() const { return policy_->runtime.path; }

bool SitePolicy::declarative() const { return policy_->runtime.mode == RuntimeShim::Mode::declarative; }

Result<SitePolicy> load_site_policy(const PolicyLocation& location) {
  RunningNote note("reading the policy " + location.path);
  PolicySearch search{.policy_dirs = location.policy_dirs};
  search.policy_dirs.push_back(install_dirs().policies);
  auto policy = load_policy(location.path, search);
  if (!policy) return policy.error();
  if (auto node = add_node_allow(*policy, location.node_allow); !node) return node.error();
  return SitePolicy(std::make_shared<const Policy>(std::move(*policy)));
}

std::string default_site_policy_path() { return site_policy_path(); }

std::uint64_t default_deadline_ms() { return Limits{}.deadline_ms; }

std::string default_runtime_path() { return RuntimeShim{}.path; }

}  // namespace graft
