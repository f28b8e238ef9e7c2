// SPDX-License-Identifier: Apache-2.0
// run_suite and its text and JSON reports.
#include "policy_cases/suite.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "policy_cases/case_env_names.hpp"
#include "policy_cases/case_file.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {
namespace {

const char* coverage_word(const RuleCoverage& rule) {
  if (rule.changed) return "changed";
  return rule.ran ? "no change" : "not run";
}

}  // namespace

std::string CaseResult::failure_text() const {
  if (!error.empty()) return "error: " + error + "\n";
  return render_mismatches(mismatches, "");
}

std::size_t SuiteResult::failed() const {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return !c.passed(); }));
}

CaseResult check_case(const PolicyCase& policy_case, const Policy& policy,
                      std::vector<RuleCoverage>& coverage) {
  CaseResult result{policy_case.name, policy_case.file, {}, {}};
  auto run = run_case(policy_case, policy);
  if (!run && !policy_case.expect.error) {
    result.error = run.error().message;
    return result;
  }
  if (!run) {
    result.mismatches = compare_case(policy_case.expect, outcome_of_error(run.error().message));
    return result;
  }
  add_coverage(run->activity, coverage);
  // A misspelled request name first: it explains the mismatches after it.
  result.mismatches = misspelled_env_names(policy_case.request, policy);
  std::vector<Mismatch> expected = compare_case(policy_case.expect, outcome_of(run->plan));
  result.mismatches.insert(result.mismatches.end(), expected.begin(), expected.end());
  return result;
}

SuiteResult run_suite(const std::vector<std::string>& files, const Policy& policy) {
  SuiteResult suite;
  if (auto rules = registered_rules(policy); !rules) {
    suite.load_error = rules.error().message;
    return suite;
  }
  for (const auto& file : files) {
    auto policy_case = read_case_file(file);
    if (!policy_case) {
      suite.cases.push_back(
          CaseResult{std::filesystem::path(file).stem().string(), file, {}, policy_case.error().message});
      continue;
    }
    suite.cases.push_back(check_case(*policy_case, policy, suite.coverage));
  }
  return suite;
}

std::string render_suite_text(const SuiteResult& result) {
  if (!result.load_error.empty())
    return fmt::format("ERROR the policy's rules did not load: {}\nno case ran\n", result.load_error);
  std::string text;
  for (const auto& c : result.cases) {
    text += fmt::format("{} {}\n", c.passed() ? "PASS" : "FAIL", c.name);
    if (c.passed()) continue;
    text += fmt::format("  {}\n", c.file);
    std::string failure = c.failure_text();
    for (std::size_t start = 0; start < failure.size();) {
      std::size_t end = failure.find('\n', start);
      text += "  " + failure.substr(start, end - start) + "\n";
      start = end == std::string::npos ? failure.size() : end + 1;
    }
  }
  std::size_t failed = result.failed();
  text += fmt::format("{} cases: {} passed, {} failed\n", result.cases.size(), result.cases.size() - failed,
                      failed);
  text += fmt::format("rule coverage ({} rules):\n", result.coverage.size());
  for (const auto& rule : result.coverage)
    text += fmt::format("  {:<9}  {}  {}\n", coverage_word(rule), rule.name, rule.origin.full());
  return text;
}

nlohmann::json render_suite_json(const SuiteResult& result) {
  if (!result.load_error.empty())
    return {{"load_error", result.load_error},
            {"cases", nlohmann::json::array()},
            {"summary", {{"cases", 0}, {"passed", 0}, {"failed", 0}}},
            {"coverage", nlohmann::json::array()}};
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : result.cases) {
    nlohmann::json mismatches = nlohmann::json::array();
    for (const auto& m : c.mismatches) mismatches.push_back(mismatch_json(m));
    nlohmann::json entry{
        {"name", c.name}, {"file", c.file}, {"passed", c.passed()}, {"mismatches", mismatches}};
    if (!c.error.empty()) entry["error"] = c.error;
    cases.push_back(entry);
  }
  nlohmann::json coverage = nlohmann::json::array();
  for (const auto& rule : result.coverage)
    coverage.push_back(
        {{"rule", rule.name}, {"origin", rule.origin.full()}, {"ran", rule.ran}, {"changed", rule.changed}});
  std::size_t failed = result.failed();
  return {{"cases", cases},
          {"summary",
           {{"cases", result.cases.size()}, {"passed", result.cases.size() - failed}, {"failed", failed}}},
          {"coverage", coverage}};
}

}  // namespace graft
