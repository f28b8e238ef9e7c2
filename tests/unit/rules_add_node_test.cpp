// SPDX-License-Identifier: Apache-2.0
// grant:add_node: rules grant the nodes of a device class by name (a fixed
// or glob class), by minor (a per-minor class) or by GPU (a per-GPU sysfs
// class), and host.class_minors lists the minors a per-minor class has.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

std::string add_node_error(const std::string& call) {
  RuleDir dir;
  return error_of(evaluate_files(dir, {{"api.lua", one_rule("r", "  " + call)}}));
}

}  // namespace

TEST_CASE("grant:add_node grants a fixed class by name and node N of a per-minor class, once each", "[rules]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"api.lua", one_rule("r", R"(  grant:add_node('fs', 'feature on')
  grant:add_node('chan', 2, 'channel 2')
  grant:add_node('chan', 2, 'again')
  grant:add_node('dri', 1, 'graphics on GPU 1'))")}});
  REQUIRE(intent.nodes.size() == 3);
  CHECK(intent.nodes[0].name() == "fs");
  CHECK(intent.nodes[0].reason.text == "feature on");
  CHECK(intent.nodes[0].reason.origin == Origin{dir.path() + "/api.lua", 2, 0});
  CHECK(intent.nodes[1].name() == "chan 2");
  CHECK(intent.nodes[1].reason.text == "channel 2");
  CHECK(intent.nodes[2].name() == "dri 1");
}

TEST_CASE("host.class_minors lists the minors a per-minor class has on the host", "[rules]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"api.lua", one_rule("r", R"(  for _, m in ipairs(host.class_minors.chan) do
    grant:add_node('chan', m, 'all channels')
  end
  grant:note('count ' .. #host.class_minors.chan))")}});
  REQUIRE(intent.nodes.size() == 2);
  CHECK(intent.nodes[0].name() == "chan 0");
  CHECK(intent.nodes[1].name() == "chan 2");
}

TEST_CASE("grant:add_node refuses what it cannot grant, naming why", "[rules]") {
  CHECK_THAT(add_node_error("grant:add_node('chn', 1, 'x')"),
             Catch::Contains("unknown device class 'chn' (not defined by the policy); did you mean 'chan'?"));
  CHECK_THAT(add_node_error("grant:add_node('gpu', 0, 'x')"),
             Catch::Contains("device class 'gpu' is per GPU or partition: grant its nodes with add_device"));
  CHECK_THAT(add_node_error("grant:add_node('chan', 'x')"),
             Catch::Contains("device class 'chan' is per minor: name the node's minor"));
  CHECK_THAT(add_node_error("grant:add_node('ctl', 3, 'x')"),
             Catch::Contains("device class 'ctl' has no numbered nodes: grant it without a number"));
  CHECK_THAT(add_node_error("grant:add_node('chan', 1048576, 'x')"),
             Catch::Contains("minor 1048576 of device class 'chan' is out of range (0 to 1048575)"));
  CHECK_THAT(add_node_error("grant:add_node('dri', 2, 'x')"), Catch::Contains("no GPU with index 2 (the host has 2)"));
}
