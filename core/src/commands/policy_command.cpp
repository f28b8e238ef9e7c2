// SPDX-License-Identifier: Apache-2.0
// `graft policy check`: loads the site policy with its includes, drop-ins and
// rule files and rule modules, and prints every finding of the check
// (policy_check/check_policy.hpp): the rules' load, each sample's outcome,
// the rules no sample exercised, what the hook needs, the host roots
// (unless --offline). It fails on the first error, or with --strict on the
// first warning too.
#include <cstdio>

#include "commands/command_steps.hpp"
#include "policy_check/check_policy.hpp"

namespace graft::commands {

Result<int> run_policy_check(const GlobalOptions& global, const PolicyCheckOptions& options) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto findings = check_policy(*policy, CheckOptions{.offline = options.offline});
  for (const CheckFinding& finding : findings) std::printf("%s\n", finding_line(finding).c_str());
  std::fflush(stdout);  // the findings before the error line, in a log of both
  if (auto verdict = check_verdict(findings, options.strict); !verdict) return verdict.error();
  std::printf("ok: %zu capability sets, %zu device classes, %zu rule files, %zu rule modules\n",
              policy->capabilities.size(), policy->devices.size(), policy->rules.size(),
              policy->rule_modules.size());
  return exit_ok;
}

}  // namespace graft::commands
