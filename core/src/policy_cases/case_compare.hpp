// SPDX-License-Identifier: Apache-2.0
// What a plan shows that a case can check (CaseOutcome), and the comparison
// of an Expectation with it: pure functions, no policy, no host.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"
#include "policy_cases/policy_case.hpp"

namespace graft {

struct OutcomeDenial {
  std::string what;
  std::string reason;
};

struct OutcomeAction {
  std::string kind;
  std::string target;
};

struct CaseOutcome {
  bool injected = false;
  std::vector<std::string> devices;       // "0", "1:0", in plan order
  std::vector<std::string> capabilities;  // granted by the rules
  std::vector<OutcomeDenial> denied;
  std::optional<std::string> refusal;
  std::vector<OutcomeAction> actions;
  std::optional<std::string> error;  // the rules or the planner failed: no plan
};

CaseOutcome outcome_of(const Plan& plan);
CaseOutcome outcome_of_error(const std::string& message);

// One difference: `field` with what the case expected and what the plan has,
// each as one TOML-like line and as a JSON value (a pattern is
// {"pattern": SOURCE}). A list of denials differs element by element: a
// denial expected and not found has no `actual` (empty text, null value),
// one found and not expected no `expected`.
struct Mismatch {
  std::string field;
  std::string expected;
  std::string actual;
  nlohmann::json expected_value = nullptr;
  nlohmann::json actual_value = nullptr;
};

// Every difference, in the order of docs/policy-test.md's [expect] keys;
// empty when the outcome meets the expectation.
std::vector<Mismatch> compare_case(const Expectation& expect, const CaseOutcome& outcome);

// "    - devices = [\"4\"]\n    + devices = [\"0\"]\n" for each mismatch (a
// side it lacks has no line).
std::string render_mismatches(const std::vector<Mismatch>& mismatches, const std::string& indent);

// {"field", "expected", "actual"}, the values as JSON.
nlohmann::json mismatch_json(const Mismatch& mismatch);

// ["a", "b"], quoted as TOML would.
std::string quoted_list(const std::vector<std::string>& items);

}  // namespace graft
