// SPDX-License-Identifier: Apache-2.0
// `graft policy diff` as data: the same cases planned under an old and a
// new policy, and per case what a container would gain or lose (devices,
// capabilities, denials, mounts and device nodes by target), how its
// verdict moved (allowed to refused, refused to allowed, another refusal
// reason), which rule (file:line) made each change, and whether the new
// policy breaks the case's own [expect]. The comparison is a pure function;
// the reports are in policy_diff_report.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "policy_cases/case_compare.hpp"

namespace graft {

// One thing the diff names ("4", "compute", "GPU 3", "/dev/gpu3
// (device_node)"), with the decision's reason text (denials and refusals)
// and where it was made: "rule tenant-lease, lease.lua:38", or the policy's
// "graft.toml:12" for a decision of no rule.
struct DiffItem {
  std::string name;
  std::string reason;
  std::string origin;

  bool operator==(const DiffItem&) const = default;
};

// What the diff compares of one plan.
struct DiffOutcome {
  std::vector<DiffItem> devices, capabilities, denials, mounts;
  std::optional<DiffItem> refusal;  // name: the refusal's text
};

DiffOutcome diff_outcome_of(const Plan& plan);

enum class Verdict {
  same,            // allowed under both, or refused for the same reason
  now_refused,     // allowed -> refused
  now_allowed,     // refused -> allowed
  reason_changed,  // refused under both, for another reason
};

const char* to_string(Verdict verdict);

// A thing gained or lost, with the rule that decided it: for a gain the
// new policy's; for a loss the new policy's denial of it when there is one,
// else the old policy's grant (`old_grant`: the item as it was granted).
struct ItemChange {
  DiffItem item;
  bool old_grant = false;

  bool operator==(const ItemChange&) const = default;
};

struct OutcomeChange {
  std::vector<ItemChange> devices_gained, devices_lost;
  std::vector<ItemChange> capabilities_gained, capabilities_lost;
  std::vector<ItemChange> denials_gained, denials_lost;  // name: what is denied
  std::vector<ItemChange> mounts_gained, mounts_lost;    // name: "TARGET (KIND)"
  Verdict verdict = Verdict::same;
  std::optional<DiffItem> old_refusal, new_refusal;  // set when the verdict is not `same`

  bool empty() const;
};

// What changes for a container whose plan was `before` and is `after`. Pure.
OutcomeChange diff_outcomes(const DiffOutcome& before, const DiffOutcome& after);

struct CaseDiff {
  std::string name;
  std::string file;
  OutcomeChange change;
  std::string old_error, new_error;  // the case failed to run under that policy
  // The new policy breaks the case's own [expect], which the old one met:
  // how, as `policy test` shows it.
  std::vector<Mismatch> expect_broken;
  bool new_error_expected = false;  // the case's [expect] error matches new_error

  bool changed() const { return !change.empty() || old_error != new_error; }
  // The new policy fails on this case where the case does not expect it to.
  bool failed() const { return !new_error.empty() && !new_error_expected; }
};

// Every file's case (a file that cannot be read is the error) under both policies.
Result<std::vector<CaseDiff>> diff_policies(const std::vector<std::string>& files, const Policy& old_policy,
                                            const Policy& new_policy);

std::string render_diff_text(const std::vector<CaseDiff>& diffs);
nlohmann::json render_diff_json(const std::vector<CaseDiff>& diffs);

}  // namespace graft
