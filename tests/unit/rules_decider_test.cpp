// SPDX-License-Identifier: Apache-2.0
// Each decision's Reason names the rule that made it, so the audit log can
// be searched by rule (`graft log --rule`, docs/audit-log.md).
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

TEST_CASE("each grant, denial and refusal names the rule that was running when it was made", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(
      dir, {{"pick.lua", one_rule("picker", "  grant:add_device(0, 'first GPU')\n  grant:add_device(1, 'second')\n"
                                            "  grant:add_capability('compute', 'compute')")},
            {"limit.lua", one_rule("limiter", "  grant:restrict_devices({9}, 'lease')")}});
  INFO(error_of(result));
  REQUIRE(result.ok());
  const Intent& intent = *result;
  REQUIRE(intent.capabilities.size() == 1);
  CHECK(intent.capabilities[0].reason.rule == "picker");
  REQUIRE_FALSE(intent.denials.empty());
  CHECK(intent.denials[0].reason.rule == "limiter");
  REQUIRE(intent.refusal);
  CHECK(intent.refusal->rule == "limiter");
  CHECK_THAT(intent.refusal->text, Catch::Contains("none of the granted GPUs is in the list"));
}

TEST_CASE("a decision made after one rule ended names the next rule, not the first", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"a.lua", one_rule("first", "  grant:add_device(0, 'a')")},
                                     {"b.lua", one_rule("second", "  grant:add_device(1, 'b')")}});
  REQUIRE(result.ok());
  REQUIRE(result->devices.size() == 2);
  CHECK(result->devices[0].reason.rule == "first");
  CHECK(result->devices[1].reason.rule == "second");
}
