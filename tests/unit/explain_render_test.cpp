// SPDX-License-Identifier: Apache-2.0
// The --explain part of `graft plan`: rules in the order they ran, each with
// phase, name and full path:line, its reads and changes, "no change", or
// "not reached". Pure: activity built in code.
#include <catch2/catch.hpp>

#include "render/explain_render.hpp"

using namespace graft;

namespace {

RuleActivity activity(const std::string& name, rules::RulePhase phase, bool ran, bool changed) {
  RuleActivity rule{name, Origin{"/etc/graft/rules/" + name + ".lua", 7, 0}};
  rule.phase = phase;
  rule.ran = ran;
  rule.changed = changed;
  return rule;
}

// Registration order: a site rule first, the vendor's request rule after it.
std::vector<RuleActivity> evaluation() {
  auto site = activity("site", rules::RulePhase::restrict, true, false);
  site.reads = {"req.annotations.tenant = \"a\""};
  auto vendor = activity("vendor", rules::RulePhase::request, true, true);
  vendor.reads = {"req.env.VISIBLE = \"1\""};
  vendor.reads_left_out = 3;
  vendor.changes = {"+ device GPU 1 (VISIBLE=1)"};
  auto late = activity("late", rules::RulePhase::check, false, false);
  return {site, vendor, late};
}

}  // namespace

TEST_CASE("explained rules are listed in the order they ran, phase by phase", "[explain]") {
  auto ordered = in_run_order(evaluation());
  REQUIRE(ordered.size() == 3);
  CHECK(ordered[0].name == "vendor");
  CHECK(ordered[1].name == "site");
  CHECK(ordered[2].name == "late");
}

TEST_CASE("the explain text gives each rule's phase, name, full path:line, reads and changes", "[explain]") {
  std::string text = render_explain_text(evaluation());
  INFO(text);
  CHECK_THAT(text, Catch::Contains("  1. request  vendor  /etc/graft/rules/vendor.lua:7\n"
                                   "       read    req.env.VISIBLE = \"1\"\n"
                                   "       read    ... and 3 more\n"
                                   "       change  + device GPU 1 (VISIBLE=1)\n"));
  CHECK_THAT(text, Catch::Contains("  2. restrict site  /etc/graft/rules/site.lua:7\n"
                                   "       read    req.annotations.tenant = \"a\"\n"
                                   "       no change\n"));
}

TEST_CASE("the explain text says a rule after a refusal was not reached", "[explain]") {
  CHECK_THAT(render_explain_text(evaluation()),
             Catch::Contains("  3. check    late  /etc/graft/rules/late.lua:7\n"
                             "       not reached: an earlier rule refused the container or failed\n"));
}

TEST_CASE("the explain text says which rule failed", "[explain]") {
  auto failing = activity("broken", rules::RulePhase::restrict, true, false);
  failing.failed = true;
  failing.reads = {"policy.data.limit = nil"};
  CHECK_THAT(render_explain_text({failing}), Catch::Contains("       read    policy.data.limit = nil\n"
                                                             "       failed: the evaluation stopped with its error\n"));
  CHECK(render_explain_json({failing})[0]["failed"] == true);
}

TEST_CASE("the explain JSON is one object per rule in run order", "[explain]") {
  auto json = render_explain_json(evaluation());
  REQUIRE(json.size() == 3);
  CHECK(json[0]["rule"] == "vendor");
  CHECK(json[0]["phase"] == "request");
  CHECK(json[0]["origin"] == "/etc/graft/rules/vendor.lua:7");
  CHECK(json[0]["reads"][0] == "req.env.VISIBLE = \"1\"");
  CHECK(json[0]["reads_left_out"] == 3);
  CHECK(json[0]["changes"][0] == "+ device GPU 1 (VISIBLE=1)");
  CHECK(json[1]["changed"] == false);
  CHECK(json[2]["ran"] == false);
}
