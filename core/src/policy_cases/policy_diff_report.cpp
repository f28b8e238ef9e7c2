// SPDX-License-Identifier: Apache-2.0
// render_diff_text and render_diff_json: a reviewer's view of a policy
// change, each line naming the rule that made it.
#include <fmt/format.h>

#include <algorithm>

#include "policy_cases/policy_diff.hpp"

namespace graft {
namespace {

// "  (rule tenant-lease, lease.lua:38)", or nothing when nothing is known.
std::string origin_note(const std::string& origin) { return origin.empty() ? "" : "  (" + origin + ")"; }

// How a loss is explained: the new denial of it, or the grant it had.
std::string loss_note(const ItemChange& change) {
  if (change.old_grant) return change.item.origin.empty() ? "" : "  (was: " + change.item.origin + ")";
  std::string denied = change.item.reason.empty() ? "denied" : "denied: " + change.item.reason;
  return change.item.origin.empty() ? "  (" + denied + ")" : fmt::format("  ({}; {})", denied, change.item.origin);
}

void add_items(std::string& text, char sign, const char* what, const std::vector<ItemChange>& items) {
  for (const auto& change : items) {
    std::string note = sign == '+' ? origin_note(change.item.origin) : loss_note(change);
    text += fmt::format("  {} {} {}{}\n", sign, what, change.item.name, note);
  }
}

void add_denials(std::string& text, char sign, const std::vector<ItemChange>& items) {
  for (const auto& change : items) {
    std::string origin = change.item.origin;
    std::string note = origin.empty() ? "" : sign == '+' ? origin_note(origin) : "  (was: " + origin + ")";
    text += fmt::format("  {} denied {}: {}{}\n", sign, change.item.name, change.item.reason, note);
  }
}

void add_verdict(std::string& text, const OutcomeChange& c) {
  auto refusal = [](const std::optional<DiffItem>& r) { return r ? r->name + origin_note(r->origin) : ""; };
  switch (c.verdict) {
    case Verdict::same:
      return;
    case Verdict::now_refused:
      text += fmt::format("  now refused (was allowed): {}\n", refusal(c.new_refusal));
      return;
    case Verdict::now_allowed:
      text += fmt::format("  now allowed (was refused: {})\n", refusal(c.old_refusal));
      return;
    case Verdict::reason_changed:
      text += fmt::format("  refusal reason changed (refused under both)\n    was: {}\n    now: {}\n",
                          refusal(c.old_refusal), refusal(c.new_refusal));
      return;
  }
}

void add_case(std::string& text, const CaseDiff& diff) {
  const OutcomeChange& c = diff.change;
  add_items(text, '+', "device", c.devices_gained);
  add_items(text, '-', "device", c.devices_lost);
  add_items(text, '+', "capability", c.capabilities_gained);
  add_items(text, '-', "capability", c.capabilities_lost);
  add_denials(text, '+', c.denials_gained);
  add_denials(text, '-', c.denials_lost);
  add_items(text, '+', "mount", c.mounts_gained);
  add_items(text, '-', "mount", c.mounts_lost);
  add_verdict(text, c);
  if (!diff.old_error.empty() && diff.old_error != diff.new_error)
    text += fmt::format("  old policy error: {}\n", diff.old_error);
  if (!diff.new_error.empty())
    text += fmt::format("  new policy error{}: {}\n", diff.new_error_expected ? " (the case expects it)" : "",
                        diff.new_error);
  if (diff.expect_broken.empty()) return;
  text += "  breaks its [expect] (met under the old policy):\n";
  text += render_mismatches(diff.expect_broken, "    ");
}

const char* case_word(const CaseDiff& diff) {
  if (diff.failed()) return "error";
  return diff.changed() ? "changed" : "same";
}

nlohmann::json item_json(const ItemChange& change) {
  nlohmann::json item{{"name", change.item.name}, {"origin", change.item.origin}};
  if (!change.item.reason.empty()) item["reason"] = change.item.reason;
  // Whose decision the origin is: the new policy's, or (a loss no new rule
  // denied) the old policy's grant.
  item["policy"] = change.old_grant ? "old" : "new";
  return item;
}

nlohmann::json items_json(const std::vector<ItemChange>& gained, const std::vector<ItemChange>& lost) {
  nlohmann::json out{{"gained", nlohmann::json::array()}, {"lost", nlohmann::json::array()}};
  for (const auto& change : gained) out["gained"].push_back(item_json(change));
  for (const auto& change : lost) out["lost"].push_back(item_json(change));
  return out;
}

nlohmann::json refusal_json(const std::optional<DiffItem>& refusal) {
  if (!refusal) return nullptr;
  return {{"text", refusal->name}, {"origin", refusal->origin}};
}

nlohmann::json case_json(const CaseDiff& diff) {
  const OutcomeChange& c = diff.change;
  nlohmann::json broken = nlohmann::json::array();
  for (const auto& mismatch : diff.expect_broken) broken.push_back(mismatch_json(mismatch));
  nlohmann::json entry{{"name", diff.name},
                       {"file", diff.file},
                       {"changed", diff.changed()},
                       {"failed", diff.failed()},
                       {"verdict", to_string(c.verdict)},
                       {"devices", items_json(c.devices_gained, c.devices_lost)},
                       {"capabilities", items_json(c.capabilities_gained, c.capabilities_lost)},
                       {"denied", items_json(c.denials_gained, c.denials_lost)},
                       {"mounts", items_json(c.mounts_gained, c.mounts_lost)},
                       {"refusal", {{"old", refusal_json(c.old_refusal)}, {"new", refusal_json(c.new_refusal)}}},
                       {"expect_broken", broken}};
  if (!diff.old_error.empty()) entry["old_error"] = diff.old_error;
  if (!diff.new_error.empty()) entry["new_error"] = diff.new_error;
  return entry;
}

template <typename Predicate>
std::size_t count(const std::vector<CaseDiff>& diffs, Predicate predicate) {
  return static_cast<std::size_t>(std::count_if(diffs.begin(), diffs.end(), predicate));
}

std::size_t changed_count(const std::vector<CaseDiff>& diffs) {
  return count(diffs, [](const CaseDiff& d) { return d.changed(); });
}
std::size_t failed_count(const std::vector<CaseDiff>& diffs) {
  return count(diffs, [](const CaseDiff& d) { return d.failed(); });
}
std::size_t broken_count(const std::vector<CaseDiff>& diffs) {
  return count(diffs, [](const CaseDiff& d) { return !d.expect_broken.empty(); });
}

}  // namespace

std::string render_diff_text(const std::vector<CaseDiff>& diffs) {
  std::string text;
  for (const auto& diff : diffs) {
    text += fmt::format("{:<8} {}\n", case_word(diff), diff.name);
    if (diff.changed() || diff.failed()) add_case(text, diff);
  }
  std::size_t changed = changed_count(diffs), broken = broken_count(diffs), failed = failed_count(diffs);
  text += fmt::format("{} cases: {} changed, {} unchanged", diffs.size(), changed, diffs.size() - changed);
  if (broken > 0)
    text +=
        fmt::format("; {} now break{} {} [expect]", broken, broken == 1 ? "s" : "", broken == 1 ? "its" : "their");
  if (failed > 0) text += fmt::format("; the new policy fails on {}", failed);
  return text + "\n";
}

nlohmann::json render_diff_json(const std::vector<CaseDiff>& diffs) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& diff : diffs) cases.push_back(case_json(diff));
  std::size_t changed = changed_count(diffs);
  return {{"cases", cases},
          {"summary",
           {{"cases", diffs.size()},
            {"changed", changed},
            {"unchanged", diffs.size() - changed},
            {"expect_broken", broken_count(diffs)},
            {"failed", failed_count(diffs)}}}};
}

}  // namespace graft
