// `graft policy check`: loads the site policy with its includes, drop-ins and
// rule files and rule modules, runs every rule against the sample requests
// (rules/sample_check.hpp), and reports the first error or a short summary
// with the rules no sample exercised.
#include <cstdio>

#include "cli/commands.hpp"
#include "rules/check.hpp"
#include "rules/sample_check.hpp"

namespace graft::cli {

Result<int> run_policy_check(const GlobalOptions& global) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  if (auto status = check_rule_files(*policy); !status) return status.error();
  for (const auto& file : policy->files) std::printf("policy   %s\n", file.c_str());
  for (const auto& rule : policy->rules) std::printf("rules    %s\n", rule.value.c_str());
  for (const auto& module : policy->rule_modules) std::printf("module   %s\n", module.value.c_str());
  auto samples = check_rules_on_samples(*policy);
  if (!samples) return samples.error();
  std::printf("samples  %zu requests on a 2-GPU sample host: %zu injected, %zu refused, %zu not GPU containers\n",
              samples->samples, samples->injected, samples->refused, samples->skipped);
  for (const auto& rule : samples->idle_rules)
    std::printf("idle     rule '%s' (%s) changed nothing for any sample; a [sample.NAME] request it acts on "
                "would check it\n",
                rule.name.c_str(), rule.origin.full().c_str());
  std::printf("ok: %zu capability sets, %zu device classes, %zu rule files, %zu rule modules\n",
              policy->capabilities.size(), policy->devices.size(), policy->rules.size(),
              policy->rule_modules.size());
  return exit_ok;
}

}  // namespace graft::cli
