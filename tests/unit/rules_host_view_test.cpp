// SPDX-License-Identifier: Apache-2.0
// The rules' `host` view (core/src/rules/host_view.cpp): the Inventory as a
// rule reads it, field by field, with partition_caps and char_majors as
// read-only maps.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

TEST_CASE("host shows the inventory", "[rules]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"host.lua", R"(rule('r', function(req, host, grant)
  grant:note(host.driver_version .. ' ' .. #host.gpus)
  for _, g in ipairs(host.gpus) do
    grant:note(g.index .. ' ' .. g.minor .. ' ' .. g.uuid .. ' ' .. g.bus_id .. ' ' .. g.model .. ' ' .. #g.partitions)
  end
  local p = host.gpus[2].partitions[2]
  grant:note(p.index .. ' ' .. p.gi .. ' ' .. p.ci)
  grant:note(host.partition_caps.config .. ' ' .. host.char_majors.gpu .. ' ' .. tostring(host.gpus[3]))
end))"}});
  CHECK(intent.request_notes ==
        std::vector<std::string>{"560.35.03 2", "0 0 GPU-aaaaaaaa-0000-0000-0000-000000000000 0000:19:00.0 Test GPU 0",
                                 "1 1 GPU-aaaaaaaa-0000-0000-0000-000000000001 0000:3b:00.0 Test GPU 2", "1 2 0",
                                 "1 195 nil"});
}

TEST_CASE("host.partition_caps lists every capability with its minor, in name order", "[rules]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"host.lua", R"(rule('r', function(req, host, grant)
  for name, minor in pairs(host.partition_caps) do grant:note(name .. '=' .. minor) end
  grant:note(tostring(host.partition_caps.absent) .. ' ' .. tostring(host.partition_caps[1]))
end))"}});
  CHECK(intent.request_notes == std::vector<std::string>{"config=1", "monitor=2", "nil nil"});
}
