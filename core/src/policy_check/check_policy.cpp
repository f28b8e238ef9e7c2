// SPDX-License-Identifier: Apache-2.0
// check_policy: each part of the check appends its findings. A rule file
// that does not load is one finding, reported once: no sample runs then.
#include "policy_check/check_policy.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "boundary/policy_places.hpp"
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

// A rule listed by a file of the vendor layer: its own policy tests cover
// it, so a site whose rules refuse the vendor's samples first is told, not
// failed under --strict.
bool is_vendor_rule(const Policy& policy, const RuleActivity& rule) {
  return std::any_of(policy.rules.begin(), policy.rules.end(), [&](const SourcedString& listed) {
    return listed.value == rule.origin.file && policy.vendor_files.contains(listed.origin.file);
  });
}

// "; 11 samples were refused before it ran" when some were.
std::string refused_before_text(const SampleCheck& check, const RuleActivity& rule) {
  auto found = check.refused_before.find(rule.name);
  if (found == check.refused_before.end() || found->second == 0) return "";
  return fmt::format("; {} sample{} refused before it ran", found->second, found->second == 1 ? " was" : "s were");
}

void add_rule_coverage(const Policy& policy, const SampleCheck& check, std::vector<CheckFinding>& findings) {
  std::string refused_by = check.refusing_rules.empty()
                               ? ""
                               : fmt::format(" (refused by {})", quoted_rules(check.refusing_rules));
  auto add = [&](const RuleActivity& rule, const CheckKind& kind, const std::string& what) {
    bool vendor = is_vendor_rule(policy, rule);
    findings.push_back({vendor ? kinds::vendor_rule_unexercised : kind,
                        fmt::format("{}rule '{}' ({}) {}{}", vendor ? "vendor " : "", rule.name, rule.origin.full(),
                                    what, vendor ? "; the vendor policy's own tests cover it" : "")});
  };
  for (const RuleActivity& rule : check.idle_rules) {
    std::string before = refused_before_text(check, rule);
    add(rule, kinds::idle_rule,
        fmt::format("ran and changed nothing for any sample{}{}; a [sample.NAME] request it acts on would check it",
                    before, before.empty() ? "" : refused_by));
  }
  for (const RuleActivity& rule : check.unreached_rules)
    add(rule, kinds::unreached_rule,
        fmt::format("was not reached: no sample came through to it as a GPU container{}; a [sample.NAME] request "
                    "the other rules let through would check it",
                    refused_by));
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
  add_rule_coverage(policy, *check, findings);
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

// Every host path outside the policy boundary, each an error with the line
// that named it: what the node agent refuses a ConfigMap on and the hook a
// GPU container on (boundary/policy_places.hpp).
void add_boundary(const Policy& policy, std::vector<CheckFinding>& findings) {
  Boundary boundary(policy);
  auto outside = policy_paths_outside(policy, boundary);
  for (const auto& finding : site_declared_places(policy)) findings.push_back({kinds::boundary_warning, to_line(finding)});
  for (const auto& finding : outside) findings.push_back({kinds::boundary_error, to_line(finding)});
  if (!outside.empty()) return;
  findings.push_back({kinds::boundary, fmt::format("every host path the policy names is in its vendor policies' "
                                                   "places{}", policy.node_places.empty() ? "" : " or the node's")});
}

}  // namespace

std::vector<CheckFinding> check_policy(const Policy& policy, const CheckOptions& options) {
  std::vector<CheckFinding> findings;
  add_files(policy, findings);
  for (const SettingOverride& found : policy.overrides) findings.push_back({kinds::setting_override, override_text(found)});
  add_samples(policy, findings);
  for (CheckFinding& need : check_hook_needs(policy, options.offline)) findings.push_back(std::move(need));
  add_boundary(policy, findings);
  add_host(policy, options.offline, findings);
  return findings;
}

}  // namespace graft
