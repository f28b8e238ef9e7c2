// SPDX-License-Identifier: Apache-2.0
// `graft policy test`'s reports: the text a person reads, JUnit XML for CI
// (escaped, one testcase per case, the diff as the failure), rule coverage.
#include <catch2/catch.hpp>

#include "policy_cases/case_compare.hpp"
#include "policy_cases/junit.hpp"
#include "policy_cases/suite.hpp"

using namespace graft;

namespace {

SuiteResult report_suite() {
  SuiteResult suite;
  suite.cases.push_back(CaseResult{"passes", "/c/passes.toml", {}, {}});
  suite.cases.push_back(
      CaseResult{"fails <&>", "/c/fails.toml", {{"refused", "/\"x\" & <y>/", "false"}}, {}});
  suite.cases.push_back(
      CaseResult{"broken", "/c/broken.toml", {}, "/c/broken.toml:2:1: request.envv: unknown key"});
  suite.coverage = {{"vendor", {"/p/vendor.lua", 3, 0}, true, true},
                    {"lease", {"/p/lease.lua", 7, 0}, true, false},
                    {"late", {"/p/late.lua", 9, 0}, false, false}};
  return suite;
}

}  // namespace

TEST_CASE("xml_escape escapes markup and quotes, keeps line breaks as references, replaces other controls",
          "[policy-test]") {
  CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
  CHECK(xml_escape("one\ntwo\tthree\r") == "one&#10;two&#9;three&#13;");
  CHECK(xml_escape(std::string("x\x01y", 3)) == "x\xEF\xBF\xBDy");
  CHECK(xml_escape("GPU \xC3\xA9") == "GPU \xC3\xA9");
}

TEST_CASE("the JUnit report has one testcase per case and a failure holding the diff for each failed one",
          "[policy-test]") {
  std::string xml = render_junit(report_suite(), "site");
  CHECK_THAT(xml, Catch::Contains("<testsuite name=\"site\" tests=\"3\" failures=\"2\">"));
  CHECK_THAT(xml, Catch::Contains("<testcase name=\"passes\" classname=\"site\" file=\"/c/passes.toml\"/>"));
  CHECK_THAT(xml, Catch::Contains("<testcase name=\"fails &lt;&amp;&gt;\""));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"- refused = /&quot;x&quot; &amp; &lt;y&gt;/&#10;+ "
                                  "refused = false&#10;\" type=\"mismatch\">"));
  CHECK_THAT(xml, Catch::Contains(
                      "type=\"error\">error: /c/broken.toml:2:1: request.envv: unknown key&#10;</failure>"));
}

TEST_CASE("the text report prints PASS or FAIL per case, the diff, a summary and each rule's coverage",
          "[policy-test]") {
  std::string text = render_suite_text(report_suite());
  CHECK(text ==
        "PASS passes\n"
        "FAIL fails <&>\n"
        "  /c/fails.toml\n"
        "  - refused = /\"x\" & <y>/\n"
        "  + refused = false\n"
        "FAIL broken\n"
        "  /c/broken.toml\n"
        "  error: /c/broken.toml:2:1: request.envv: unknown key\n"
        "3 cases: 1 passed, 2 failed\n"
        "rule coverage (3 rules):\n"
        "  changed    vendor  /p/vendor.lua:3\n"
        "  no change  lease  /p/lease.lua:7\n"
        "  not run    late  /p/late.lua:9\n");
}

TEST_CASE("coverage over cases: a rule ran or changed something if it did in any case", "[policy-test]") {
  std::vector<RuleCoverage> coverage;
  add_coverage({{"a", {}, true, false}, {"b", {}, false, false}}, coverage);
  add_coverage({{"a", {}, true, true}, {"b", {}, true, false}}, coverage);
  REQUIRE(coverage.size() == 2);
  CHECK(coverage[0].ran);
  CHECK(coverage[0].changed);
  CHECK(coverage[1].ran);
  CHECK_FALSE(coverage[1].changed);
}

TEST_CASE("the JSON report carries every case, the summary and the coverage", "[policy-test]") {
  nlohmann::json json = render_suite_json(report_suite());
  CHECK(json["summary"] == nlohmann::json{{"cases", 3}, {"passed", 1}, {"failed", 2}});
  CHECK(json["cases"][1]["mismatches"][0]["field"] == "refused");
  CHECK(json["cases"][2]["error"] == "/c/broken.toml:2:1: request.envv: unknown key");
  CHECK(json["coverage"][2] ==
        nlohmann::json{{"rule", "late"}, {"origin", "/p/late.lua:9"}, {"ran", false}, {"changed", false}});
}

TEST_CASE("the JSON report gives a mismatch's expected and actual as JSON, not TOML text", "[policy-test]") {
  Expectation expect;
  expect.devices = std::vector<std::string>{"4"};
  CaseOutcome outcome;
  outcome.devices = {"0", "1"};
  outcome.refusal = "no lease";
  SuiteResult suite;
  suite.cases.push_back(CaseResult{"lease", "/c/lease.toml", compare_case(expect, outcome), {}});
  nlohmann::json mismatches = render_suite_json(suite)["cases"][0]["mismatches"];
  CHECK(mismatches[0] == nlohmann::json{{"field", "devices"}, {"expected", {"4"}}, {"actual", {"0", "1"}}});
  CHECK(mismatches[1] == nlohmann::json{{"field", "refused"}, {"expected", false}, {"actual", "no lease"}});
}
