// diff_outcomes, diff_policies and their reports.
#include "policy_test/policy_diff.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "policy_test/case_file.hpp"
#include "policy_test/run_case.hpp"

namespace graft {
namespace {

// Items of `from` missing from `other`, in `from`'s order, once each.
std::vector<std::string> missing_from(const std::vector<std::string>& from,
                                      const std::vector<std::string>& other) {
  std::set<std::string> seen(other.begin(), other.end());
  std::vector<std::string> out;
  for (const auto& item : from)
    if (seen.insert(item).second) out.push_back(item);
  return out;
}

std::vector<std::string> mounts_of(const CaseOutcome& outcome) {
  std::vector<std::string> mounts;
  for (const auto& action : outcome.actions)
    if (action.kind == "bind_mount" || action.kind == "device_node")
      mounts.push_back(fmt::format("{} ({})", action.target, action.kind));
  return mounts;
}

Result<CaseOutcome> outcome_under(const PolicyCase& policy_case, const Policy& policy) {
  auto run = run_case(policy_case, policy);
  if (!run) return run.error();
  return outcome_of(run->plan);
}

void add_change_lines(std::string& text, char sign, const char* what, const std::vector<std::string>& items) {
  for (const auto& item : items) text += fmt::format("  {} {} {}\n", sign, what, item);
}

}  // namespace

bool OutcomeChange::empty() const {
  return devices_gained.empty() && devices_lost.empty() && capabilities_gained.empty() &&
         capabilities_lost.empty() && mounts_gained.empty() && mounts_lost.empty() && !old_refusal &&
         !new_refusal;
}

OutcomeChange diff_outcomes(const CaseOutcome& before, const CaseOutcome& after) {
  OutcomeChange change;
  change.devices_gained = missing_from(after.devices, before.devices);
  change.devices_lost = missing_from(before.devices, after.devices);
  change.capabilities_gained = missing_from(after.capabilities, before.capabilities);
  change.capabilities_lost = missing_from(before.capabilities, after.capabilities);
  change.mounts_gained = missing_from(mounts_of(after), mounts_of(before));
  change.mounts_lost = missing_from(mounts_of(before), mounts_of(after));
  if (before.refusal != after.refusal) {
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
    CaseDiff diff{policy_case->name, file, {}, {}, {}};
    auto before = outcome_under(*policy_case, old_policy);
    auto after = outcome_under(*policy_case, new_policy);
    if (!before) diff.old_error = before.error().message;
    if (!after) diff.new_error = after.error().message;
    if (before && after) diff.change = diff_outcomes(*before, *after);
    diffs.push_back(std::move(diff));
  }
  return diffs;
}

std::string render_diff_text(const std::vector<CaseDiff>& diffs) {
  std::string text;
  std::size_t changed = 0;
  for (const auto& diff : diffs) {
    if (!diff.changed()) {
      text += fmt::format("same     {}\n", diff.name);
      continue;
    }
    ++changed;
    text += fmt::format("changed  {}\n", diff.name);
    const OutcomeChange& c = diff.change;
    add_change_lines(text, '+', "device", c.devices_gained);
    add_change_lines(text, '-', "device", c.devices_lost);
    add_change_lines(text, '+', "capability", c.capabilities_gained);
    add_change_lines(text, '-', "capability", c.capabilities_lost);
    add_change_lines(text, '+', "mount", c.mounts_gained);
    add_change_lines(text, '-', "mount", c.mounts_lost);
    if (c.new_refusal)
      text += fmt::format("  now refused: {}\n", *c.new_refusal);
    else if (c.old_refusal)
      text += fmt::format("  no longer refused (was: {})\n", *c.old_refusal);
    if (diff.old_error != diff.new_error) {
      if (!diff.old_error.empty()) text += fmt::format("  old policy error: {}\n", diff.old_error);
      if (!diff.new_error.empty()) text += fmt::format("  new policy error: {}\n", diff.new_error);
    }
  }
  text += fmt::format("{} cases: {} changed, {} unchanged\n", diffs.size(), changed, diffs.size() - changed);
  return text;
}

nlohmann::json render_diff_json(const std::vector<CaseDiff>& diffs) {
  nlohmann::json cases = nlohmann::json::array();
  std::size_t changed = 0;
  for (const auto& diff : diffs) {
    const OutcomeChange& c = diff.change;
    changed += diff.changed() ? 1 : 0;
    nlohmann::json entry{{"name", diff.name},
                         {"file", diff.file},
                         {"changed", diff.changed()},
                         {"devices", {{"gained", c.devices_gained}, {"lost", c.devices_lost}}},
                         {"capabilities", {{"gained", c.capabilities_gained}, {"lost", c.capabilities_lost}}},
                         {"mounts", {{"gained", c.mounts_gained}, {"lost", c.mounts_lost}}},
                         {"refusal",
                          {{"old", c.old_refusal ? nlohmann::json(*c.old_refusal) : nlohmann::json()},
                           {"new", c.new_refusal ? nlohmann::json(*c.new_refusal) : nlohmann::json()}}}};
    if (!diff.old_error.empty()) entry["old_error"] = diff.old_error;
    if (!diff.new_error.empty()) entry["new_error"] = diff.new_error;
    cases.push_back(entry);
  }
  return {
      {"cases", cases},
      {"summary", {{"cases", diffs.size()}, {"changed", changed}, {"unchanged", diffs.size() - changed}}}};
}

}  // namespace graft
