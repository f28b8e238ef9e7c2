// SPDX-License-Identifier: Apache-2.0
// check_policy: each part of the check appends its findings. A rule file
// that does not load is one finding, reported once: no sample runs then.
#include "policy_check/check_policy.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "inventory/root_check.hpp"
#include "policy_check/hook_needs.hpp"
#include "render/policy_render.hpp"
#include "rules/check.hpp"
#include "rules/evaluate_rules.hpp"
#include "rules/sample_check.hpp"

namespace graft {
namespace {

namespace kinds = check_kinds;

void add_files(const Policy& policy, std::vector<CheckFinding>& findings) {
  for (const auto& file : policy.files) findings.push_back({kinds::policy_file, file});
  for (const auto& rule : policy.rules) findings.push_back({kinds::rule_file, rule.value});
  for (const auto& module : policy.rule_modules) findings.push_back({kinds::rule_module, module.value});
}

std::string sample_heading(const SampleOutcome& sample) {
  std::vector<std::string> notes;
  if (!sample.origin.empty()) notes.push_back(sample.origin.full());
  if (!sample.host.empty()) notes.push_back(sample.host);
  return notes.empty() ? sample.name : fmt::format("{} ({})", sample.name, fmt::join(notes, "; "));
}

std::string quoted_rules(const std::vector<std::string>& rules) {
  std::vector<std::string> quoted;
  for (const auto& rule : rules) quoted.push_back(rule.empty() ? "the policy" : "'" + rule + "'");
  return fmt::format("{}", fmt::join(quoted, ", "));
}

// Reads of policy.data keys that no [data_schema] declares, found while the samples ran.
void add_undeclared_reads(const Policy& policy, const SampleCheck& check, std::vector<CheckFinding>& findings) {
  const CheckKind& kind = policy.data_schema.declared() ? kinds::undeclared_read_error : kinds::undeclared_read;
  for (const RuleActivity& rule : check.undeclared_data_reads)
    for (const DataRead& read : rule.undeclared_reads)
      findings.push_back({kind, fmt::format("rule '{}' ({}) reads data.{}, which [data_schema] does not declare",
                                            rule.name, read.at.empty() ? rule.origin.full() : read.at.full(),
                                            read.key)});
}

void add_rule_coverage(const SampleCheck& check, std::vector<CheckFinding>& findings) {
  for (const RuleActivity& rule : check.idle_rules)
    findings.push_back({kinds::idle_rule, fmt::format("rule '{}' ({}) ran and changed nothing for any sample; a "
                                                      "[sample.NAME] request it acts on would check it",
                                                      rule.name, rule.origin.full())});
  std::string refused_by = check.refusing_rules.empty()
                               ? ""
                               : fmt::format(" (refused by {})", quoted_rules(check.refusing_rules));
  for (const RuleActivity& rule : check.unreached_rules)
    findings.push_back({kinds::unreached_rule,
                        fmt::format("rule '{}' ({}) was not reached: no sample came through to it as a GPU "
                                    "container{}; a [sample.NAME] request the other rules let through would check it",
                                    rule.name, rule.origin.full(), refused_by)});
}

// When the rules do not load, that is the one finding, and no sample runs.
void add_samples(const Policy& policy, std::vector<CheckFinding>& findings) {
  Status compiled = check_rule_files(policy);
  auto check = compiled ? check_rules_on_samples(policy) : Result<SampleCheck>(compiled.error());
  if (!check) {
    findings.push_back({kinds::load_error, "rules did not load: " + check.error().message});
    return;
  }
  for (const SampleOutcome& sample : check->samples) {
    if (sample.kind == SampleOutcome::Kind::error)
      findings.push_back({kinds::sample_error, fmt::format("{}: {}", sample_label(sample), sample.error)});
    else
      findings.push_back({kinds::sample, fmt::format("{}: {}", sample_heading(sample), describe_outcome(sample))});
  }
  using Kind = SampleOutcome::Kind;
  findings.push_back({kinds::samples, fmt::format("{} requests: {} injected, {} refused, {} not GPU containers, {} "
                                                  "failed", check->samples.size(), check->count(Kind::injected),
                                                  check->count(Kind::refused), check->count(Kind::not_gpu),
                                                  check->count(Kind::error))});
  add_rule_coverage(*check, findings);
  add_undeclared_reads(policy, *check, findings);
}

void add_host(const Policy& policy, bool offline, std::vector<CheckFinding>& findings) {
  if (offline) {
    findings.push_back({kinds::host, "not checked (--offline): the [host] roots and what discovery reads there"});
    return;
  }
  std::size_t errors = 0, warnings = 0;
  for (const auto& root : check_host_roots(policy)) {
    bool error = root.severity == RootFinding::Severity::error;
    findings.push_back({error ? kinds::host_error : kinds::host_warning, describe(root),
                        error ? "(--offline checks the policy alone)" : ""});
    ++(error ? errors : warnings);
  }
  const HostRoots& roots = policy.host;
  findings.push_back({kinds::host, fmt::format("driver_root {}, dev_root {}, proc_root {}, sys_root {}, run_root {}: "
                                               "{} error{}, {} warning{}", roots.driver_root, roots.dev_root, roots.proc_root,
                                               roots.sys_root, roots.run_root, errors, errors == 1 ? "" : "s",
                                               warnings, warnings == 1 ? "" : "s")});
}

}  // namespace

std::vector<CheckFinding> check_policy(const Policy& policy, const CheckOptions& options) {
  std::vector<CheckFinding> findings;
  add_files(policy, findings);
  for (const SettingOverride& found : policy.overrides) findings.push_back({kinds::setting_override, override_text(found)});
  add_samples(policy, findings);
  for (CheckFinding& need : check_hook_needs(policy, options.offline)) findings.push_back(std::move(need));
  add_host(policy, options.offline, findings);
  return findings;
}

}  // namespace graft
