// SPDX-License-Identifier: Apache-2.0
// The site policy a subcommand reads: the global options' file, their
// policy directories searched before the shipped policies' directory.
#include "boundary/node_allow.hpp"
#include "commands/command_steps.hpp"
#include "graft/engine/install_dirs.hpp"
#include "watchdog/running_note.hpp"

namespace graft::commands {

Result<Policy> load_site_policy(const GlobalOptions& options) {
  RunningNote note("reading the policy " + options.policy_path);
  PolicySearch search;
  search.policy_dirs = options.policy_dirs;
  search.policy_dirs.push_back(install_dirs().policies);
  auto policy = load_policy(options.policy_path, search);
  if (!policy) return policy.error();
  if (auto node = add_node_allow(*policy, options.node_allow); !node) return node.error();
  return policy;
}

}  // namespace graft::commands
