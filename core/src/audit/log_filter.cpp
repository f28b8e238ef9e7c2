// SPDX-License-Identifier: Apache-2.0
#include "audit/log_filter.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "audit/log_record.hpp"

namespace graft {
namespace {

using json = nlohmann::json;

void add_rule_of(const json& decision, std::vector<std::string>& rules) {
  if (!decision.is_object()) return;
  auto rule = decision.find("rule");
  if (rule == decision.end() || !rule->is_string()) return;
  const auto& name = rule->get_ref<const std::string&>();
  if (std::find(rules.begin(), rules.end(), name) == rules.end()) rules.push_back(name);
}

void add_rules_of_list(const json& list, std::vector<std::string>& rules) {
  if (!list.is_array()) return;
  for (const json& decision : list) add_rule_of(decision, rules);
}

}  // namespace

bool log_glob_matches(const std::string& pattern, const std::string& text) {
  return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

std::vector<std::string> decision_rules(const json& record) {
  std::vector<std::string> rules;
  const json& decisions = record_member(record, "decisions");
  const json& granted = record_member(decisions, "granted");
  if (granted.is_object())
    for (const auto& [kind, list] : granted.items()) add_rules_of_list(list, rules);
  add_rules_of_list(record_member(decisions, "denied"), rules);
  add_rule_of(record_member(decisions, "refusal"), rules);
  return rules;
}

bool record_matches(const LogFilter& filter, const json& record) {
  const std::string& id = record.at("id").get_ref<const std::string&>();
  const std::string& outcome = record.at("outcome").get_ref<const std::string&>();
  double time = record.at("time").get<double>();
  if (!filter.container.empty() && !log_glob_matches(filter.container, id)) return false;
  if (!filter.outcomes.empty() &&
      std::find(filter.outcomes.begin(), filter.outcomes.end(), outcome) == filter.outcomes.end())
    return false;
  if (filter.since && time < *filter.since) return false;
  if (filter.until && time > *filter.until) return false;
  if (filter.rule.empty()) return true;
  auto rules = decision_rules(record);
  return std::any_of(rules.begin(), rules.end(),
                     [&](const std::string& rule) { return log_glob_matches(filter.rule, rule); });
}

}  // namespace graft
