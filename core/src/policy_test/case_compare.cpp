// outcome_of and compare_case. Lists compare as sets (order is the rules'
// business, not the case's); patterns are ECMAScript, searched anywhere.
#include "policy_test/case_compare.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/policy_render.hpp"

namespace graft {
namespace {

bool pattern_matches(const TextPattern& pattern, const std::string& text) {
  return std::regex_search(text, std::regex(pattern.source, std::regex::ECMAScript));
}

std::string pattern_text(const TextPattern& pattern) { return "/" + pattern.source + "/"; }

std::vector<std::string> sorted_copy(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  return items;
}

void compare_list(const char* field, const std::optional<std::vector<std::string>>& expected,
                  const std::vector<std::string>& actual, std::vector<Mismatch>& out) {
  if (expected && sorted_copy(*expected) != sorted_copy(actual))
    out.push_back({field, quoted_list(*expected), quoted_list(actual)});
}

std::string denial_text(const std::string& what, const std::string& reason) {
  return fmt::format("{{what = {}, reason = {}}}", toml_quoted(what), reason);
}

void compare_denied(const std::vector<ExpectedDenial>& expected, const std::vector<OutcomeDenial>& actual,
                    std::vector<Mismatch>& out) {
  std::vector<bool> used(actual.size(), false);
  bool all_found = true;
  for (const auto& want : expected) {
    bool found = false;
    for (std::size_t i = 0; i < actual.size() && !found; ++i)
      if (!used[i] && actual[i].what == want.what && pattern_matches(want.reason, actual[i].reason))
        used[i] = found = true;
    all_found &= found;
  }
  if (all_found && std::all_of(used.begin(), used.end(), [](bool u) { return u; })) return;
  std::vector<std::string> want_texts, have_texts;
  for (const auto& want : expected) want_texts.push_back(denial_text(want.what, pattern_text(want.reason)));
  for (const auto& have : actual) have_texts.push_back(denial_text(have.what, toml_quoted(have.reason)));
  out.push_back({"denied", "[" + fmt::format("{}", fmt::join(want_texts, ", ")) + "]",
                 "[" + fmt::format("{}", fmt::join(have_texts, ", ")) + "]"});
}

void compare_refusal(const Expectation& expect, const std::optional<std::string>& refusal,
                     std::vector<Mismatch>& out) {
  std::string want = !expect.refused ? "false" : expect.refusal ? pattern_text(*expect.refusal) : "true";
  std::string have = refusal ? toml_quoted(*refusal) : "false";
  bool met =
      expect.refused ? refusal && (!expect.refusal || pattern_matches(*expect.refusal, *refusal)) : !refusal;
  if (!met) out.push_back({"refused", want, have});
}

std::string action_text(const std::string& kind, const std::string& target) {
  if (kind.empty()) return fmt::format("{{target = {}}}", toml_quoted(target));
  return fmt::format("{{kind = {}, target = {}}}", toml_quoted(kind), toml_quoted(target));
}

const OutcomeAction* find_action(const ExpectedAction& want, const std::vector<OutcomeAction>& actions) {
  for (const auto& action : actions)
    if (action.target == want.target && (want.kind.empty() || action.kind == want.kind)) return &action;
  return nullptr;
}

void compare_actions(const Expectation& expect, const std::vector<OutcomeAction>& actions,
                     std::vector<Mismatch>& out) {
  for (const auto& want : expect.actions_present)
    if (!find_action(want, actions))
      out.push_back({"actions_present", action_text(want.kind, want.target), "(no such action)"});
  for (const auto& unwanted : expect.actions_absent)
    if (const OutcomeAction* found = find_action(unwanted, actions))
      out.push_back({"actions_absent", action_text(unwanted.kind, unwanted.target),
                     "present: " + action_text(found->kind, found->target)});
}

}  // namespace

std::string quoted_list(const std::vector<std::string>& items) {
  std::vector<std::string> texts;
  for (const auto& item : items) texts.push_back(toml_quoted(item));
  return "[" + fmt::format("{}", fmt::join(texts, ", ")) + "]";
}

CaseOutcome outcome_of(const Plan& plan) {
  CaseOutcome outcome;
  outcome.injected = plan.inject;
  for (const auto& device : plan.devices)
    outcome.devices.push_back(device.partition ? fmt::format("{}:{}", device.index, *device.partition)
                                               : std::to_string(device.index));
  for (const auto& capability : plan.intent.capabilities) outcome.capabilities.push_back(capability.name);
  for (const auto& denial : plan.intent.denials) outcome.denied.push_back({denial.what, denial.reason.text});
  if (plan.intent.refusal) outcome.refusal = plan.intent.refusal->text;
  for (const auto& action : plan.actions) outcome.actions.push_back({to_string(action.kind), action.target});
  return outcome;
}

CaseOutcome outcome_of_error(const std::string& message) {
  CaseOutcome outcome;
  outcome.error = message;
  return outcome;
}

std::vector<Mismatch> compare_case(const Expectation& expect, const CaseOutcome& outcome) {
  std::vector<Mismatch> out;
  if (expect.error || outcome.error) {
    std::string want = expect.error ? pattern_text(*expect.error) : "false";
    std::string have = outcome.error ? toml_quoted(*outcome.error) : "false";
    if (!expect.error || !outcome.error || !pattern_matches(*expect.error, *outcome.error))
      out.push_back({"error", want, have});
    return out;
  }
  if (expect.injected && *expect.injected != outcome.injected)
    out.push_back({"injected", *expect.injected ? "true" : "false", outcome.injected ? "true" : "false"});
  compare_list("devices", expect.devices, outcome.devices, out);
  compare_list("capabilities", expect.capabilities, outcome.capabilities, out);
  if (expect.denied) compare_denied(*expect.denied, outcome.denied, out);
  compare_refusal(expect, outcome.refusal, out);
  compare_actions(expect, outcome.actions, out);
  return out;
}

std::string render_mismatches(const std::vector<Mismatch>& mismatches, const std::string& indent) {
  std::string text;
  for (const auto& m : mismatches)
    text += fmt::format("{}- {} = {}\n{}+ {} = {}\n", indent, m.field, m.expected, indent, m.field, m.actual);
  return text;
}

}  // namespace graft
