// SPDX-License-Identifier: Apache-2.0
// outcome_of and compare_case. Lists compare as sets (order is the rules'
// business, not the case's); patterns are ECMAScript, searched anywhere.
#include "policy_cases/case_compare.hpp"

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
nlohmann::json pattern_json(const TextPattern& pattern) { return {{"pattern", pattern.source}}; }

std::vector<std::string> sorted_copy(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  return items;
}

void compare_list(const char* field, const std::optional<std::vector<std::string>>& expected,
                  const std::vector<std::string>& actual, std::vector<Mismatch>& out) {
  if (expected && sorted_copy(*expected) != sorted_copy(actual))
    out.push_back({field, quoted_list(*expected), quoted_list(actual), *expected, actual});
}

Mismatch expected_denial(const ExpectedDenial& want) {
  std::string text = fmt::format("{{what = {}, reason = {}}}", toml_quoted(want.what), pattern_text(want.reason));
  return {"denied", text, "", {{"what", want.what}, {"reason", pattern_json(want.reason)}}, nullptr};
}

Mismatch actual_denial(const OutcomeDenial& have) {
  std::string text = fmt::format("{{what = {}, reason = {}}}", toml_quoted(have.what), toml_quoted(have.reason));
  return {"denied", "", text, nullptr, {{"what", have.what}, {"reason", have.reason}}};
}

// Element by element: each expected denial is matched with an unused actual
// one; an expected one with no match pairs with an unmatched actual denial
// of the same `what` (its reason differs), else stands alone, as does each
// actual denial left over.
void compare_denied(const std::vector<ExpectedDenial>& expected, const std::vector<OutcomeDenial>& actual,
                    std::vector<Mismatch>& out) {
  std::vector<bool> used(actual.size(), false);
  std::vector<const ExpectedDenial*> missing;
  for (const auto& want : expected) {
    bool found = false;
    for (std::size_t i = 0; i < actual.size() && !found; ++i)
      if (!used[i] && actual[i].what == want.what && pattern_matches(want.reason, actual[i].reason))
        used[i] = found = true;
    if (!found) missing.push_back(&want);
  }
  for (const ExpectedDenial* want : missing) {
    Mismatch mismatch = expected_denial(*want);
    for (std::size_t i = 0; i < actual.size(); ++i) {
      if (used[i] || actual[i].what != want->what) continue;
      used[i] = true;
      Mismatch have = actual_denial(actual[i]);
      mismatch.actual = have.actual;
      mismatch.actual_value = have.actual_value;
      break;
    }
    out.push_back(std::move(mismatch));
  }
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (!used[i]) out.push_back(actual_denial(actual[i]));
}

void compare_refusal(const Expectation& expect, const std::optional<std::string>& refusal,
                     std::vector<Mismatch>& out) {
  std::string want = !expect.refused ? "false" : expect.refusal ? pattern_text(*expect.refusal) : "true";
  nlohmann::json want_value = !expect.refused ? nlohmann::json(false)
                              : expect.refusal ? pattern_json(*expect.refusal)
                                               : nlohmann::json(true);
  std::string have = refusal ? toml_quoted(*refusal) : "false";
  bool met =
      expect.refused ? refusal && (!expect.refusal || pattern_matches(*expect.refusal, *refusal)) : !refusal;
  nlohmann::json have_value = refusal ? nlohmann::json(*refusal) : nlohmann::json(false);
  if (!met) out.push_back({"refused", want, have, want_value, have_value});
}

std::string action_text(const std::string& kind, const std::string& target) {
  if (kind.empty()) return fmt::format("{{target = {}}}", toml_quoted(target));
  return fmt::format("{{kind = {}, target = {}}}", toml_quoted(kind), toml_quoted(target));
}

nlohmann::json action_json(const std::string& kind, const std::string& target) {
  if (kind.empty()) return {{"target", target}};
  return {{"kind", kind}, {"target", target}};
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
      out.push_back({"actions_present", action_text(want.kind, want.target), "(no such action)",
                     action_json(want.kind, want.target), nullptr});
  for (const auto& unwanted : expect.actions_absent)
    if (const OutcomeAction* found = find_action(unwanted, actions))
      out.push_back({"actions_absent", action_text(unwanted.kind, unwanted.target),
                     "present: " + action_text(found->kind, found->target),
                     action_json(unwanted.kind, unwanted.target), action_json(found->kind, found->target)});
}

void compare_error(const Expectation& expect, const CaseOutcome& outcome, std::vector<Mismatch>& out) {
  std::string want = expect.error ? pattern_text(*expect.error) : "false";
  std::string have = outcome.error ? toml_quoted(*outcome.error) : "false";
  if (!expect.error || !outcome.error || !pattern_matches(*expect.error, *outcome.error))
    out.push_back({"error", want, have, expect.error ? pattern_json(*expect.error) : nlohmann::json(false),
                   outcome.error ? nlohmann::json(*outcome.error) : nlohmann::json(false)});
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
    compare_error(expect, outcome, out);
    return out;
  }
  if (expect.injected && *expect.injected != outcome.injected)
    out.push_back({"injected", *expect.injected ? "true" : "false", outcome.injected ? "true" : "false",
                   *expect.injected, outcome.injected});
  compare_list("devices", expect.devices, outcome.devices, out);
  compare_list("capabilities", expect.capabilities, outcome.capabilities, out);
  if (expect.denied) compare_denied(*expect.denied, outcome.denied, out);
  compare_refusal(expect, outcome.refusal, out);
  compare_actions(expect, outcome.actions, out);
  return out;
}

std::string render_mismatches(const std::vector<Mismatch>& mismatches, const std::string& indent) {
  std::string text;
  for (const auto& m : mismatches) {
    if (!m.expected.empty()) text += fmt::format("{}- {} = {}\n", indent, m.field, m.expected);
    if (!m.actual.empty()) text += fmt::format("{}+ {} = {}\n", indent, m.field, m.actual);
  }
  return text;
}

nlohmann::json mismatch_json(const Mismatch& mismatch) {
  return {{"field", mismatch.field}, {"expected", mismatch.expected_value}, {"actual", mismatch.actual_value}};
}

}  // namespace graft
