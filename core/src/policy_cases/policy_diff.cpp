// SPDX-License-Identifier: Apache-2.0
// diff_outcome_of, diff_outcomes and diff_policies: the comparison; the
// reports are policy_diff_report.cpp.
#include "policy_cases/policy_diff.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "policy_cases/case_file.hpp"
#include "policy_cases/run_case.hpp"

namespace graft {
namespace {

// "rule NAME, file.lua:38", or the policy file's "graft.toml:12" for a
// decision no rule made.
std::string origin_text(const Reason& reason) {
  std::string where = reason.origin.empty() ? "" : reason.origin.brief();
  if (reason.rule.empty()) return where;
  return where.empty() ? "rule " + reason.rule : fmt::format("rule {}, {}", reason.rule, where);
}

bool same_name(const DiffItem& a, const DiffItem& b) { return a.name == b.name; }
bool same_denial(const DiffItem& a, const DiffItem& b) { return a.name == b.name && a.reason == b.reason; }

// Items of `from` with no match in `other`, in `from`'s order, once each.
template <typename Same>
std::vector<DiffItem> missing_from(const std::vector<DiffItem>& from, const std::vector<DiffItem>& other,
                                   Same same) {
  std::vector<DiffItem> out;
  for (const auto& item : from) {
    auto matches = [&](const DiffItem& o) { return same(item, o); };
    if (std::none_of(other.begin(), other.end(), matches) && std::none_of(out.begin(), out.end(), matches))
      out.push_back(item);
  }
  return out;
}

std::vector<ItemChange> gained(const std::vector<DiffItem>& items) {
  std::vector<ItemChange> out;
  for (const auto& item : items) out.push_back({item, false});
  return out;
}

// A lost item is blamed on the new policy's denial named `denial_of(item)`,
// when it has one, else on the old grant.
template <typename DenialName>
std::vector<ItemChange> lost(const std::vector<DiffItem>& items, const DiffOutcome& after, DenialName denial_of) {
  std::vector<ItemChange> out;
  for (const auto& item : items) {
    std::string denial = denial_of(item);
    auto found = std::find_if(after.denials.begin(), after.denials.end(),
                              [&](const DiffItem& d) { return d.name == denial; });
    if (found != after.denials.end())
      out.push_back({DiffItem{item.name, found->reason, found->origin}, false});
    else
      out.push_back({item, true});
  }
  return out;
}

std::string gpu_of(const DiffItem& device) { return "GPU " + device.name.substr(0, device.name.find(':')); }
std::string capability_of(const DiffItem& capability) { return "capability " + capability.name; }
std::string nothing(const DiffItem&) { return {}; }

Verdict verdict_of(const DiffOutcome& before, const DiffOutcome& after) {
  if (!before.refusal && !after.refusal) return Verdict::same;
  if (!before.refusal) return Verdict::now_refused;
  if (!after.refusal) return Verdict::now_allowed;
  return before.refusal->name == after.refusal->name ? Verdict::same : Verdict::reason_changed;
}

struct CaseRunOutcome {
  DiffOutcome diff;
  CaseOutcome checked;  // for the case's [expect]
  std::string error;
};

CaseRunOutcome outcome_under(const PolicyCase& policy_case, const Policy& policy) {
  auto run = run_case(policy_case, policy);
  if (!run) return {{}, outcome_of_error(run.error().message), run.error().message};
  return {diff_outcome_of(run->plan), outcome_of(run->plan), {}};
}

CaseDiff diff_case(const PolicyCase& policy_case, const Policy& old_policy, const Policy& new_policy) {
  CaseDiff diff{policy_case.name, policy_case.file, {}, {}, {}, {}, false};
  CaseRunOutcome before = outcome_under(policy_case, old_policy);
  CaseRunOutcome after = outcome_under(policy_case, new_policy);
  diff.old_error = before.error;
  diff.new_error = after.error;
  if (before.error.empty() && after.error.empty()) diff.change = diff_outcomes(before.diff, after.diff);
  std::vector<Mismatch> now = compare_case(policy_case.expect, after.checked);
  // A new error is its own failure; its [expect] lines would only repeat it.
  if (after.error.empty() && !now.empty() && compare_case(policy_case.expect, before.checked).empty())
    diff.expect_broken = now;
  diff.new_error_expected = !after.error.empty() && policy_case.expect.error && now.empty();
  return diff;
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::same:
      return "same";
    case Verdict::now_refused:
      return "now_refused";
    case Verdict::now_allowed:
      return "now_allowed";
    case Verdict::reason_changed:
      return "reason_changed";
  }
  return "same";
}

DiffOutcome diff_outcome_of(const Plan& plan) {
  DiffOutcome outcome;
  for (const auto& device : plan.devices) {
    std::string name =
        device.partition ? fmt::format("{}:{}", device.index, *device.partition) : std::to_string(device.index);
    outcome.devices.push_back({name, device.reason.text, origin_text(device.reason)});
  }
  for (const auto& capability : plan.intent.capabilities)
    outcome.capabilities.push_back({capability.name, capability.reason.text, origin_text(capability.reason)});
  for (const auto& denial : plan.intent.denials)
    outcome.denials.push_back({denial.what, denial.reason.text, origin_text(denial.reason)});
  for (const auto& action : plan.actions)
    if (action.kind == ActionKind::bind_mount || action.kind == ActionKind::device_node)
      outcome.mounts.push_back({fmt::format("{} ({})", action.target, to_string(action.kind)),
                                {},
                                action.provenance.origin.empty() ? "" : action.provenance.origin.brief()});
  if (plan.intent.refusal)
    outcome.refusal =
        DiffItem{plan.intent.refusal->text, plan.intent.refusal->text, origin_text(*plan.intent.refusal)};
  return outcome;
}

bool OutcomeChange::empty() const {
  return devices_gained.empty() && devices_lost.empty() && capabilities_gained.empty() &&
         capabilities_lost.empty() && denials_gained.empty() && denials_lost.empty() && mounts_gained.empty() &&
         mounts_lost.empty() && verdict == Verdict::same;
}

OutcomeChange diff_outcomes(const DiffOutcome& before, const DiffOutcome& after) {
  OutcomeChange change;
  change.devices_gained = gained(missing_from(after.devices, before.devices, same_name));
  change.devices_lost = lost(missing_from(before.devices, after.devices, same_name), after, gpu_of);
  change.capabilities_gained = gained(missing_from(after.capabilities, before.capabilities, same_name));
  change.capabilities_lost =
      lost(missing_from(before.capabilities, after.capabilities, same_name), after, capability_of);
  change.denials_gained = gained(missing_from(after.denials, before.denials, same_denial));
  change.denials_lost = lost(missing_from(before.denials, after.denials, same_denial), after, nothing);
  change.mounts_gained = gained(missing_from(after.mounts, before.mounts, same_name));
  change.mounts_lost = lost(missing_from(before.mounts, after.mounts, same_name), after, nothing);
  change.verdict = verdict_of(before, after);
  if (change.verdict != Verdict::same) {
    change.old_refusal = before.refusal;
    change.new_refusal = after.refusal;
  }
  return change;
}

Result<std::vector<CaseDiff>> diff_policies(const std::vector<std::string>& files, const Policy& old_policy,
                                            const Policy& new_policy) {
  std::vector<CaseDiff> diffs;
  for (const auto& file : files) {
    auto policy_case = read_case_file(file);
    if (!policy_case) return policy_case.error();
    diffs.push_back(diff_case(*policy_case, old_policy, new_policy));
  }
  return diffs;
}

}  // namespace graft
