// SPDX-License-Identifier: Apache-2.0
// What `graft plan --explain` learns from an evaluation: per rule, the values
// it read through the views (req, host, policy) and what it changed; and
// nothing of that when not explaining.
#include <catch2/catch.hpp>

#include <algorithm>

#include "rules/view_reads.hpp"
#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

const char* kReader = R"(
rule("reader", "request", function(req, host, grant)
  if req.env.GPUS ~= "all" or req.privileged then return end
  local limit = policy.data.site.name
  if #host.gpus > 1 and req.env.MISSING == nil then
    grant:inject("asked for " .. limit)
    grant:add_device(host.gpus[2].index, "second GPU")
  end
end)
)";

const char* kQuiet = R"(
rule("quiet", "check", function(req, host, grant)
  local _ = req.annotations["example.com/tenant"]
end)
)";

std::vector<RuleActivity> explain(const RuleDir& dir, const std::vector<std::pair<std::string, std::string>>& files,
                                  ActivityDetail detail = ActivityDetail::explained) {
  std::vector<std::string> paths;
  for (const auto& [name, text] : files) paths.push_back(dir.write(name, text));
  std::vector<RuleActivity> activity;
  auto result = evaluate_rules(test_request(), test_inventory(), test_policy(paths), &activity, detail);
  INFO(error_of(result));
  REQUIRE(result.ok());
  return activity;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

}  // namespace

TEST_CASE("an explained rule lists each value it read with the path it read it through", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"reader.lua", kReader}});
  REQUIRE(activity.size() == 1);
  const auto& reads = activity[0].reads;
  INFO(Catch::Detail::stringify(reads));
  CHECK(has(reads, "req.env.GPUS = \"all\""));
  CHECK(has(reads, "req.privileged = false"));
  CHECK(has(reads, "policy.data.site.name = \"lab\""));
  CHECK(has(reads, "#host.gpus = 2"));
  CHECK(has(reads, "req.env.MISSING = nil"));
  CHECK(has(reads, "host.gpus[2].index = 1"));
}

TEST_CASE("a key that is not a Lua name is shown in brackets", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"quiet.lua", kQuiet}});
  CHECK(activity[0].reads == std::vector<std::string>{"req.annotations[\"example.com/tenant\"] = \"team-a\""});
}

TEST_CASE("an explained rule lists what it changed, and one that changed nothing lists no change",
          "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"reader.lua", kReader}, {"quiet.lua", kQuiet}});
  REQUIRE(activity.size() == 2);
  CHECK(activity[0].phase == rules::RulePhase::request);
  CHECK(activity[0].changes == std::vector<std::string>{"inject: false -> true (asked for lab)",
                                                         "+ device GPU 1 (second GPU)"});
  CHECK(activity[1].phase == rules::RulePhase::check);
  CHECK(activity[1].ran);
  CHECK_FALSE(activity[1].changed);
  CHECK(activity[1].changes.empty());
}

TEST_CASE("a rule reading many values keeps the first distinct ones and counts the rest", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(
      dir, {{"many.lua", one_rule("many", "for round = 1, 3 do for i = 1, 100 do local _ = req.env['V' .. i] end end")}});
  CHECK(activity[0].reads.size() == rules::ViewReads::kLimitPerRule);
  CHECK(activity[0].reads_left_out == 100 - rules::ViewReads::kLimitPerRule);
}

TEST_CASE("a read repeated by a rule is listed once", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"again.lua", one_rule("again", "for i = 1, 5 do local _ = req.privileged end")}});
  CHECK(activity[0].reads == std::vector<std::string>{"req.privileged = false"});
}

TEST_CASE("a view kept in a local is still read under its full path", "[rules][explain]") {
  RuleDir dir;
  auto activity =
      explain(dir, {{"local.lua", "local data = policy.data\n" +
                                      one_rule("local", "local racks = data.site.racks; local _ = racks[2]")}});
  CHECK(activity[0].reads == std::vector<std::string>{"policy.data.site.racks[2] = 5"});
}

TEST_CASE("iterating a view is one read", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"loop.lua", one_rule("loop", "for k, v in pairs(req.env) do end")}});
  CHECK(activity[0].reads == std::vector<std::string>{"pairs(req.env)"});
}

TEST_CASE("without explaining, activity records no reads and no changes", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"reader.lua", kReader}}, ActivityDetail::outcome);
  REQUIRE(activity.size() == 1);
  CHECK(activity[0].changed);
  CHECK(activity[0].reads.empty());
  CHECK(activity[0].changes.empty());
}

TEST_CASE("rules after a refusal are listed as not run", "[rules][explain]") {
  RuleDir dir;
  auto activity = explain(dir, {{"deny.lua", "rule('deny', 'request', function(req, host, grant) "
                                             "grant:deny('no GPUs today') end)\n"},
                                {"quiet.lua", kQuiet}});
  REQUIRE(activity.size() == 2);
  CHECK(activity[0].ran);
  CHECK(has(activity[0].changes, "refused (no GPUs today)"));
  CHECK_FALSE(activity[1].ran);
}

TEST_CASE("a rule that fails is marked failed, with what it read before failing", "[rules][explain]") {
  RuleDir dir;
  std::string path = dir.write("broken.lua", one_rule("broken", "local x = policy.data.gpu_limit.max"));
  std::string quiet = dir.write("quiet.lua", kQuiet);
  std::vector<RuleActivity> activity;
  auto result = evaluate_rules(test_request(), test_inventory(), test_policy({path, quiet}), &activity,
                               ActivityDetail::explained);
  REQUIRE_FALSE(result.ok());
  REQUIRE(activity.size() == 2);
  CHECK(activity[0].failed);
  CHECK(activity[0].reads == std::vector<std::string>{"policy.data.gpu_limit = nil"});
  CHECK_FALSE(activity[1].ran);
  CHECK_FALSE(activity[1].failed);
}

TEST_CASE("registered_rules lists every rule with its phase and runs none", "[rules][explain]") {
  RuleDir dir;
  std::string failing = dir.write("fail.lua", "rule('fail', 'derive', function() error('ran') end)\n");
  std::string quiet = dir.write("quiet.lua", kQuiet);
  auto rules = registered_rules(test_policy({failing, quiet}));
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 2);
  CHECK((*rules)[0].name == "fail");
  CHECK((*rules)[0].phase == rules::RulePhase::derive);
  CHECK((*rules)[0].origin.file == failing);
  CHECK((*rules)[0].origin.line == 1);
  CHECK((*rules)[1].phase == rules::RulePhase::check);
  CHECK_FALSE((*rules)[0].ran);
}
