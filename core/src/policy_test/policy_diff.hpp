// `graft policy diff` as data: the same cases planned under an old and a
// new policy, and per case what a container would gain or lose (devices,
// capabilities, mounts and device nodes by target) and whether it would now
// be refused. The comparison of two outcomes is a pure function.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/policy.hpp"
#include "policy_test/case_compare.hpp"

namespace graft {

struct OutcomeChange {
  std::vector<std::string> devices_gained, devices_lost;
  std::vector<std::string> capabilities_gained, capabilities_lost;
  // "TARGET (KIND)" of bind_mount and device_node actions.
  std::vector<std::string> mounts_gained, mounts_lost;
  std::optional<std::string> old_refusal, new_refusal;  // set when refusal changed

  bool empty() const;
};

// What changes for a container whose plan was `before` and is `after`. Pure.
OutcomeChange diff_outcomes(const CaseOutcome& before, const CaseOutcome& after);

struct CaseDiff {
  std::string name;
  std::string file;
  OutcomeChange change;
  std::string old_error, new_error;  // the case failed to run under that policy

  bool changed() const { return !change.empty() || old_error != new_error; }
};

// Every file's case (a file that cannot be read is the error) under both policies.
Result<std::vector<CaseDiff>> diff_policies(const std::vector<std::string>& files, const Policy& old_policy,
                                            const Policy& new_policy);

std::string render_diff_text(const std::vector<CaseDiff>& diffs);
nlohmann::json render_diff_json(const std::vector<CaseDiff>& diffs);

}  // namespace graft
