// `graft policy check`: loads the site policy with its includes, drop-ins and
// rule files and rule modules, runs every rule against the sample requests
// (rules/sample_check.hpp), checks the host roots the policy names
// (inventory/root_check.hpp) unless --offline, and reports the first error
// or a short summary with the rules no sample exercised.
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "inventory/root_check.hpp"
#include "render/policy_render.hpp"
#include "rules/check.hpp"
#include "rules/sample_check.hpp"

namespace graft::cli {
namespace {

// One line per finding; an error naming the first error found, if any.
Status report_host(const Policy& policy, bool offline) {
  if (offline) {
    std::printf("host     not checked (--offline): the [host] roots and what discovery reads there\n");
    return ok_status();
  }
  auto findings = check_host_roots(policy);
  const RootFinding* first_error = nullptr;
  std::size_t errors = 0;
  for (const auto& finding : findings) {
    bool error = finding.severity == RootFinding::Severity::error;
    std::printf("%s %s\n", error ? "error   " : "warning ", describe(finding).c_str());
    if (error && errors++ == 0) first_error = &finding;
  }
  std::fflush(stdout);  // the findings before the error line, in a log of both
  if (first_error)
    return make_error("{}{} (--offline checks the policy alone)", describe(*first_error),
                      errors > 1 ? fmt::format("; {} more host error{} above", errors - 1, errors > 2 ? "s" : "") : "");
  const HostRoots& roots = policy.host;
  std::printf("host     driver_root %s, dev_root %s, proc_root %s, sys_root %s, run_root %s: %zu warning%s\n",
              roots.driver_root.c_str(), roots.dev_root.c_str(), roots.proc_root.c_str(), roots.sys_root.c_str(),
              roots.run_root.c_str(), findings.size(), findings.size() == 1 ? "" : "s");
  return ok_status();
}

// A rule's read of a data key no schema declares: a warning while the
// policy declares no [data_schema], an error once it does.
Status report_undeclared_reads(const Policy& policy, const SampleCheck& samples) {
  std::string first;
  for (const auto& rule : samples.undeclared_data_reads)
    for (const auto& read : rule.undeclared_reads) {
      std::string line = fmt::format("rule '{}' ({}) reads data.{}, which [data_schema] does not declare", rule.name,
                                     read.at.empty() ? rule.origin.full() : read.at.full(), read.key);
      std::printf("%s %s\n", policy.data_schema.declared() ? "error   " : "warning ", line.c_str());
      if (first.empty()) first = line;
    }
  std::fflush(stdout);
  if (policy.data_schema.declared() && !first.empty()) return make_error("{}", first);
  return ok_status();
}

}  // namespace

Result<int> run_policy_check(const GlobalOptions& global, bool offline) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  if (auto status = check_rule_files(*policy); !status) return status.error();
  for (const auto& file : policy->files) std::printf("policy   %s\n", file.c_str());
  for (const auto& rule : policy->rules) std::printf("rules    %s\n", rule.value.c_str());
  for (const auto& module : policy->rule_modules) std::printf("module   %s\n", module.value.c_str());
  for (const auto& found : policy->overrides) std::printf("warning  %s\n", override_text(found).c_str());
  auto samples = check_rules_on_samples(*policy);
  if (!samples) return samples.error();
  std::printf("samples  %zu requests on a 2-GPU sample host: %zu injected, %zu refused, %zu not GPU containers\n",
              samples->samples, samples->injected, samples->refused, samples->skipped);
  for (const auto& rule : samples->idle_rules)
    std::printf("idle     rule '%s' (%s) changed nothing for any sample; a [sample.NAME] request it acts on "
                "would check it\n",
                rule.name.c_str(), rule.origin.full().c_str());
  if (auto status = report_undeclared_reads(*policy, *samples); !status) return status.error();
  if (auto status = report_host(*policy, offline); !status) return status.error();
  std::printf("ok: %zu capability sets, %zu device classes, %zu rule files, %zu rule modules\n",
              policy->capabilities.size(), policy->devices.size(), policy->rules.size(),
              policy->rule_modules.size());
  return exit_ok;
}

}  // namespace graft::cli
