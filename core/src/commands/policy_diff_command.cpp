// SPDX-License-Identifier: Apache-2.0
// `graft policy diff`: the cases planned under an old and a new policy
// (policy_cases/policy_diff.hpp), what changes per case. Exit 1 when the new
// policy fails on a case (an error the case does not expect) or its rules do
// not load (one error, before any case), or with --fail-on-change when any
// case changed; else 0.
#include <algorithm>
#include <cstdio>

#include "commands/command_steps.hpp"
#include "policy_cases/case_file.hpp"
#include "policy_cases/policy_diff.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft::commands {

Result<int> run_policy_diff(const GlobalOptions& global, const PolicyDiffOptions& options) {
  auto files = find_case_files(options.cases);
  if (!files) {
    std::fprintf(stderr, "graft: %s\n", one_line(files.error().message).c_str());
    return exit_usage;
  }
  GlobalOptions old_global = global, new_global = global;
  old_global.policy_path = options.old_policy;
  new_global.policy_path = options.new_policy;
  auto old_policy = load_site_policy(old_global);
  if (!old_policy) return old_policy.error().context("--old");
  auto new_policy = load_site_policy(new_global);
  if (!new_policy) return new_policy.error().context("--new");
  // Rules that do not load fail every case alike: one error, not one per case.
  if (auto rules = registered_rules(*old_policy); !rules) return rules.error().context("--old: rules did not load");
  if (auto rules = registered_rules(*new_policy); !rules) return rules.error().context("--new: rules did not load");
  auto diffs = diff_policies(*files, *old_policy, *new_policy);
  if (!diffs) return diffs.error();
  if (options.format == "json")
    std::printf("%s\n", render_diff_json(*diffs).dump(2).c_str());
  else
    std::fputs(render_diff_text(*diffs).c_str(), stdout);
  bool changed = std::any_of(diffs->begin(), diffs->end(), [](const CaseDiff& d) { return d.changed(); });
  bool failed = std::any_of(diffs->begin(), diffs->end(), [](const CaseDiff& d) { return d.failed(); });
  return failed || (options.fail_on_change && changed) ? exit_error : exit_ok;
}

}  // namespace graft::commands
