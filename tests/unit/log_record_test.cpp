// SPDX-License-Identifier: Apache-2.0
// How `graft log` reads one line of the audit log and shows a record
// (docs/audit-log.md#graft-log): any line is read without throwing, and a
// record becomes one readable line.
#include <catch2/catch.hpp>

#include "audit/log_record.hpp"

using namespace graft;
using nlohmann::json;

namespace {

json planned_record() {
  return json::parse(R"({"schema":1,"time":1795497600.5,"id":"c1","outcome":"planned",
    "decisions":{"notes":[],"granted":{"devices":[{"gpu":2,"partition":null},{"gpu":0,"partition":1}],
      "capabilities":[{"name":"compute"},{"name":"utility"}],"extras":[],"env":[],"files":[]},
      "denied":[],"refusal":null}})");
}

}  // namespace

TEST_CASE("a line that is not JSON is no record, and says so", "[log]") {
  auto record = parse_log_line(R"({"id":"c1","outcome":"plan)");
  REQUIRE_FALSE(record);
  CHECK(record.error().message == "not JSON");
}

TEST_CASE("a JSON line without a string id and outcome and a number time is no record", "[log]") {
  CHECK(parse_log_line("[1,2]").error().message == "not a JSON object");
  CHECK(parse_log_line(R"({"outcome":"planned","time":1})").error().message == "no string 'id'");
  CHECK(parse_log_line(R"({"id":7,"outcome":"planned","time":1})").error().message == "no string 'id'");
  CHECK(parse_log_line(R"({"id":"c1","outcome":"planned","time":"now"})").error().message == "no number 'time'");
}

TEST_CASE("a record's text line shows its time, id, outcome, devices and capabilities", "[log]") {
  CHECK(log_line_text(planned_record()) ==
        "2026-11-24T05:20:00.500Z c1 planned devices=2,0:1 capabilities=compute,utility");
}

TEST_CASE("a refused record's text line ends with the refusal, its origin and its rule", "[log]") {
  json record = planned_record();
  record["outcome"] = "refused";
  record["decisions"]["refusal"] = {{"reason", "GPUs 4-7 only"}, {"origin", "lease.lua:31"}, {"rule", "lease"}};
  CHECK_THAT(log_line_text(record),
             Catch::EndsWith(" refused devices=2,0:1 capabilities=compute,utility refused: GPUs 4-7 only "
                             "(lease.lua:31, rule lease)"));
}

TEST_CASE("an error record without decisions shows the error and no devices", "[log]") {
  json record = {{"time", 1795497600.0}, {"id", "c3"}, {"outcome", "error"}, {"error", "rule 'x' (x.lua:1): boom"}};
  CHECK(log_line_text(record) == "2026-11-24T05:20:00.000Z c3 error error: rule 'x' (x.lua:1): boom");
}

TEST_CASE("control characters a record quotes are escaped in its text line", "[log]") {
  json record = {{"time", 1795497600.0}, {"id", "c\n4"}, {"outcome", "error"}, {"error", "bad\x1b[2J"}};
  CHECK(log_line_text(record) == "2026-11-24T05:20:00.000Z c\\n4 error error: bad\\x1b[2J");
}

TEST_CASE("decisions of unexpected types still give a text line", "[log]") {
  json record = {{"time", 1e300}, {"id", "c5"}, {"outcome", "planned"},
                 {"decisions", {{"granted", {{"devices", "all"}, {"capabilities", {1, {{"name", 2}}}}}},
                                {"refusal", {{"reason", 3}}}}}};
  CHECK(log_line_text(record) == "1e+300 c5 planned devices=none capabilities=2 refused: 3 (null)");
}
