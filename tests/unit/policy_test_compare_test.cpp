// SPDX-License-Identifier: Apache-2.0
// A case's expectation against a plan's outcome: pure comparisons, each
// difference an "- expected" / "+ actual" pair.
#include <catch2/catch.hpp>

#include "policy_cases/case_compare.hpp"

using namespace graft;

namespace {

CaseOutcome lease_outcome() {
  CaseOutcome outcome;
  outcome.injected = true;
  outcome.devices = {"1", "0"};
  outcome.capabilities = {"compute", "utility"};
  outcome.denied = {{"GPU 2", "lease for team-a"}};
  outcome.actions = {{"device_node", "/dev/gpu0"}, {"bind_mount", "/usr/bin/smi"}};
  return outcome;
}

std::vector<std::string> fields_of(const std::vector<Mismatch>& mismatches) {
  std::vector<std::string> fields;
  for (const auto& m : mismatches) fields.push_back(m.field);
  return fields;
}

}  // namespace

TEST_CASE("an outcome that meets every expectation has no mismatch, whatever the order of its lists",
          "[policy-test]") {
  Expectation expect;
  expect.injected = true;
  expect.devices = std::vector<std::string>{"0", "1"};
  expect.capabilities = std::vector<std::string>{"utility", "compute"};
  expect.denied = std::vector<ExpectedDenial>{{"GPU 2", {"^lease for"}}};
  expect.actions_present = {{"device_node", "/dev/gpu0"}, {"", "/usr/bin/smi"}};
  expect.actions_absent = {{"", "/dev/gpu2"}, {"device_node", "/usr/bin/smi"}};
  CHECK(compare_case(expect, lease_outcome()).empty());
}

TEST_CASE("a missing or extra device, capability or denial is a mismatch", "[policy-test]") {
  Expectation expect;
  expect.devices = std::vector<std::string>{"0"};
  expect.capabilities = std::vector<std::string>{"compute", "utility", "display"};
  expect.denied = std::vector<ExpectedDenial>{};
  auto mismatches = compare_case(expect, lease_outcome());
  CHECK(fields_of(mismatches) == std::vector<std::string>{"devices", "capabilities", "denied"});
  CHECK(mismatches[0].expected == "[\"0\"]");
  CHECK(mismatches[0].actual == "[\"1\", \"0\"]");
  CHECK(mismatches[2].expected.empty());
  CHECK(mismatches[2].actual == "{what = \"GPU 2\", reason = \"lease for team-a\"}");
}

TEST_CASE("a denied mismatch is shown per element: the missing, the extra, and one whose reason differs",
          "[policy-test]") {
  CaseOutcome outcome = lease_outcome();
  outcome.denied = {{"GPU 2", "lease for team-a"}, {"GPU 3", "lease for team-a"}, {"capability display", "x"}};
  Expectation expect;
  expect.denied = std::vector<ExpectedDenial>{{"GPU 2", {"team-a"}}, {"GPU 3", {"team-b"}}, {"GPU 5", {"lease"}}};
  std::string text = render_mismatches(compare_case(expect, outcome), "  ");
  CHECK(text ==
        "  - denied = {what = \"GPU 3\", reason = /team-b/}\n"
        "  + denied = {what = \"GPU 3\", reason = \"lease for team-a\"}\n"
        "  - denied = {what = \"GPU 5\", reason = /lease/}\n"
        "  + denied = {what = \"capability display\", reason = \"x\"}\n");
}

TEST_CASE("a mismatch's expected and actual are JSON values, a pattern an object", "[policy-test]") {
  Expectation expect;
  expect.devices = std::vector<std::string>{"0"};
  expect.refused = true;
  expect.refusal = TextPattern{"^no lease"};
  expect.denied = std::vector<ExpectedDenial>{{"GPU 4", {"lease"}}};
  auto mismatches = compare_case(expect, lease_outcome());
  REQUIRE(mismatches.size() == 4);
  CHECK(mismatches[0].expected_value == nlohmann::json::array({"0"}));
  CHECK(mismatches[0].actual_value == nlohmann::json::array({"1", "0"}));
  CHECK(mismatches[1].expected_value == nlohmann::json{{"what", "GPU 4"}, {"reason", {{"pattern", "lease"}}}});
  CHECK(mismatches[1].actual_value.is_null());
  CHECK(mismatches[2].actual_value == nlohmann::json{{"what", "GPU 2"}, {"reason", "lease for team-a"}});
  CHECK(mismatches[3].expected_value == nlohmann::json{{"pattern", "^no lease"}});
  CHECK(mismatches[3].actual_value == false);
}

TEST_CASE("a denial's reason is a pattern searched in the text, and its what is exact", "[policy-test]") {
  Expectation expect;
  expect.denied = std::vector<ExpectedDenial>{{"GPU 2", {"team-b"}}};
  CHECK(fields_of(compare_case(expect, lease_outcome())) == std::vector<std::string>{"denied"});
  expect.denied = std::vector<ExpectedDenial>{{"GPU", {"team-a"}}};  // one missing, one not expected
  CHECK(fields_of(compare_case(expect, lease_outcome())) == std::vector<std::string>{"denied", "denied"});
  expect.denied = std::vector<ExpectedDenial>{{"GPU 2", {"team-a$"}}};
  CHECK(compare_case(expect, lease_outcome()).empty());
}

TEST_CASE("a case that does not mention refused expects no refusal", "[policy-test]") {
  CaseOutcome refused = lease_outcome();
  refused.refusal = "tenant 'x' has no GPU lease";
  auto mismatches = compare_case(Expectation{}, refused);
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches[0].field == "refused");
  CHECK(mismatches[0].expected == "false");
  CHECK(mismatches[0].actual == "\"tenant 'x' has no GPU lease\"");
}

TEST_CASE("refused = PATTERN needs a refusal whose text matches it", "[policy-test]") {
  Expectation expect;
  expect.refused = true;
  expect.refusal = TextPattern{"no GPU lease"};
  CaseOutcome outcome = lease_outcome();
  CHECK(fields_of(compare_case(expect, outcome)) == std::vector<std::string>{"refused"});
  outcome.refusal = "tenant 'x' has no GPU lease";
  CHECK(compare_case(expect, outcome).empty());
  outcome.refusal = "requirement cuda>=13 unmet";
  CHECK(compare_case(expect, outcome).at(0).expected == "/no GPU lease/");
}

TEST_CASE("an action expected present or absent is matched by target, and by kind when given",
          "[policy-test]") {
  Expectation expect;
  expect.actions_present = {{"bind_mount", "/dev/gpu0"}};
  expect.actions_absent = {{"", "/dev/gpu0"}};
  auto mismatches = compare_case(expect, lease_outcome());
  REQUIRE(mismatches.size() == 2);
  CHECK(mismatches[0].actual == "(no such action)");
  CHECK(mismatches[1].actual == "present: {kind = \"device_node\", target = \"/dev/gpu0\"}");
}

TEST_CASE("an expected error passes only when the plan fails with a matching message", "[policy-test]") {
  Expectation expect;
  expect.error = TextPattern{"no capability minor"};
  CHECK(compare_case(expect, outcome_of_error("GPU 0 partition 0: no capability minor for 'x'")).empty());
  CHECK(compare_case(expect, outcome_of_error("granted GPU 4 does not exist")).at(0).field == "error");
  CHECK(compare_case(expect, lease_outcome()).at(0).actual == "false");
}

TEST_CASE(
    "the outcome of a plan lists its devices as GPU or GPU:PARTITION and its actions by kind and target",
    "[policy-test]") {
  Plan plan;
  plan.inject = true;
  plan.devices = {GrantedDevice{.index = 0}, GrantedDevice{.index = 1, .partition = 1}};
  plan.intent.capabilities = {NamedGrant{"compute", {}}};
  plan.intent.refusal = Reason{"no", {}};
  plan.actions = {Action{.kind = ActionKind::cgroup_allow, .target = "c 195:0"}};
  CaseOutcome outcome = outcome_of(plan);
  CHECK(outcome.devices == std::vector<std::string>{"0", "1:1"});
  CHECK(outcome.capabilities == std::vector<std::string>{"compute"});
  CHECK(outcome.refusal == "no");
  REQUIRE(outcome.actions.size() == 1);
  CHECK(outcome.actions[0].kind == "cgroup_allow");
  CHECK(outcome.actions[0].target == "c 195:0");
}

TEST_CASE("mismatches render as - expected and + actual lines", "[policy-test]") {
  std::vector<Mismatch> mismatches{{"devices", "[\"4\"]", "[\"0\"]"}};
  CHECK(render_mismatches(mismatches, "  ") == "  - devices = [\"4\"]\n  + devices = [\"0\"]\n");
}
