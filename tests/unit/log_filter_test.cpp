// SPDX-License-Identifier: Apache-2.0
// Which records `graft log` keeps (docs/audit-log.md#graft-log): a pure
// predicate, so each filter is checked on records built here.
#include <catch2/catch.hpp>

#include "audit/log_filter.hpp"

using namespace graft;
using nlohmann::json;

namespace {

json filter_test_record(const std::string& id, const std::string& outcome, double time) {
  return {{"schema", 1}, {"time", time}, {"id", id}, {"outcome", outcome}};
}

// A record whose decisions came from `rule` in the place `where` names.
json record_decided_by(const std::string& rule, const std::string& where) {
  json record = filter_test_record("c1", "planned", 100);
  json decision = {{"reason", "why"}, {"origin", "x.lua:1"}, {"rule", rule}};
  json decisions = {{"notes", json::array()},
                    {"granted", {{"devices", json::array()}, {"capabilities", json::array()}}},
                    {"denied", json::array()},
                    {"refusal", nullptr}};
  if (where == "refusal") decisions["refusal"] = decision;
  else if (where == "denied") decisions["denied"].push_back(decision);
  else decisions["granted"][where].push_back(decision);
  record["decisions"] = decisions;
  return record;
}

}  // namespace

TEST_CASE("an empty filter keeps every record", "[log]") {
  CHECK(record_matches(LogFilter{}, filter_test_record("c1", "error", 5)));
}

TEST_CASE("a container glob keeps only records whose id matches it", "[log]") {
  LogFilter filter{.container = "train-*"};
  CHECK(record_matches(filter, filter_test_record("train-7", "applied", 1)));
  CHECK_FALSE(record_matches(filter, filter_test_record("serve-1", "applied", 1)));
}

TEST_CASE("several outcomes keep a record with any one of them", "[log]") {
  LogFilter filter{.outcomes = {"refused", "error"}};
  CHECK(record_matches(filter, filter_test_record("c1", "refused", 1)));
  CHECK(record_matches(filter, filter_test_record("c1", "error", 1)));
  CHECK_FALSE(record_matches(filter, filter_test_record("c1", "applied", 1)));
}

TEST_CASE("since and until keep records inside the bounds, the bounds included", "[log]") {
  LogFilter filter{.since = 100.0, .until = 200.0};
  CHECK(record_matches(filter, filter_test_record("c1", "applied", 100)));
  CHECK(record_matches(filter, filter_test_record("c1", "applied", 200)));
  CHECK_FALSE(record_matches(filter, filter_test_record("c1", "applied", 99.9)));
  CHECK_FALSE(record_matches(filter, filter_test_record("c1", "applied", 200.1)));
}

TEST_CASE("a rule glob keeps records with a decision by that rule, granted, denied or the refusal", "[log]") {
  LogFilter filter{.rule = "tenant-*"};
  for (std::string where : {"devices", "capabilities", "denied", "refusal"}) {
    INFO(where);
    CHECK(record_matches(filter, record_decided_by("tenant-gpu-lease", where)));
    CHECK_FALSE(record_matches(filter, record_decided_by("nvidia-visible-devices", where)));
  }
}

TEST_CASE("a rule filter drops records without decisions or whose decisions name no rule", "[log]") {
  LogFilter filter{.rule = "*"};
  CHECK_FALSE(record_matches(filter, filter_test_record("c1", "error", 1)));
  json unnamed = record_decided_by("x", "devices");
  unnamed["decisions"]["granted"]["devices"][0].erase("rule");
  CHECK_FALSE(record_matches(filter, unnamed));
}

TEST_CASE("the rules of a record are listed once each, whatever the decisions' types", "[log]") {
  json record = record_decided_by("a", "devices");
  record["decisions"]["granted"]["capabilities"] = {{{"rule", "a"}}, {{"rule", "b"}}, 7, {{"rule", 3}}};
  record["decisions"]["denied"] = "none";
  CHECK(decision_rules(record) == std::vector<std::string>{"a", "b"});
}
