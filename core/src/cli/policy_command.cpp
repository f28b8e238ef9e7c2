// `graft policy check`: loads the site policy with its includes, drop-ins and
// rule files and rule modules, and reports the first error or a short summary.
#include <cstdio>

#include "cli/commands.hpp"
#include "rules/check.hpp"

namespace graft::cli {

Result<int> run_policy_check(const GlobalOptions& global) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  if (auto status = check_rule_files(*policy); !status) return status.error();
  for (const auto& file : policy->files) std::printf("policy   %s\n", file.c_str());
  for (const auto& rule : policy->rules) std::printf("rules    %s\n", rule.value.c_str());
  for (const auto& module : policy->rule_modules) std::printf("module   %s\n", module.value.c_str());
  std::printf("ok: %zu capability sets, %zu device classes, %zu rule files, %zu rule modules\n",
              policy->capabilities.size(), policy->devices.size(), policy->rules.size(),
              policy->rule_modules.size());
  return exit_ok;
}

}  // namespace graft::cli
