// SPDX-License-Identifier: Apache-2.0
// `graft policy test` as data: every case file run against one policy,
// each compared with its expectation, and the rules' coverage over all of
// them; rendered as text (a test runner's report), JSON, or JUnit XML (junit.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/policy.hpp"
#include "policy_cases/case_compare.hpp"
#include "policy_cases/run_case.hpp"

namespace graft {

struct CaseResult {
  std::string name;
  std::string file;
  std::vector<Mismatch> mismatches;
  std::string error;  // the case could not be read or run

  bool passed() const { return error.empty() && mismatches.empty(); }
  // What a failure says: the error, or the mismatches as "- expected" / "+ actual" lines.
  std::string failure_text() const;
};

struct SuiteResult {
  std::vector<CaseResult> cases;
  std::vector<RuleCoverage> coverage;
  // The policy's rules did not load (a syntax error, a duplicate rule name):
  // one error of the policy, reported once, and no case runs.
  std::string load_error;

  std::size_t failed() const;
  bool passed() const { return load_error.empty() && failed() == 0; }
};

// Runs each file in order; a file that cannot be read or run is a failed case.
// Rules that do not load are the suite's load_error, before any case.
SuiteResult run_suite(const std::vector<std::string>& files, const Policy& policy);

// The result of one case read and run (for run_suite and tests).
CaseResult check_case(const PolicyCase& policy_case, const Policy& policy,
                      std::vector<RuleCoverage>& coverage);

std::string render_suite_text(const SuiteResult& result);
nlohmann::json render_suite_json(const SuiteResult& result);

}  // namespace graft
