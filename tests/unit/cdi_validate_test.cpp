// SPDX-License-Identifier: Apache-2.0
// validate_spec: a CDI spec document checked against the CDI rules, one
// line per problem naming its JSON path (cdi/cdi_validate.hpp). Pure.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cdi/cdi_validate.hpp"

using graft::cdi::validate_spec;
using nlohmann::json;

namespace {

// A valid 0.5.0 spec: one device "0" with a node and a hook.
json valid_spec() {
  return json::parse(R"({
    "cdiVersion": "0.5.0", "kind": "example.com/gpu",
    "devices": [{"name": "0", "containerEdits": {
      "deviceNodes": [{"path": "/dev/gpu0", "hostPath": "/dev/gpu0", "type": "c", "major": 195, "minor": 0}],
      "hooks": [{"hookName": "createRuntime", "path": "/usr/bin/graft", "args": ["graft"], "env": ["PATH=/bin"]}]}}],
    "containerEdits": {"mounts": [{"hostPath": "/lib/a.so", "containerPath": "/lib/a.so", "options": ["ro", "bind"]}]}
  })");
}

std::vector<std::string> problems_with(const std::function<void(json&)>& edit) {
  json spec = valid_spec();
  edit(spec);
  return validate_spec(spec);
}

}  // namespace

TEST_CASE("a well-formed spec has no problems", "[cdi][validate]") { CHECK(validate_spec(valid_spec()).empty()); }

TEST_CASE("an unknown field is refused with its path", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"]["deviceNodes"][0]["colour"] = "red"; }) ==
        std::vector<std::string>{"$.devices[0].containerEdits.deviceNodes[0].colour: unknown field"});
}

TEST_CASE("a missing required field is named", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s.erase("kind"); }) == std::vector<std::string>{"$.kind: required field missing"});
  CHECK(problems_with([](json& s) { s["devices"][0].erase("name"); }) ==
        std::vector<std::string>{"$.devices[0].name: required field missing"});
}

TEST_CASE("a field newer than the declared cdiVersion names the version it needs", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["cdiVersion"] = "0.4.0"; }) ==
        std::vector<std::string>{
            "$.devices[0].name: a device name starting with a digit needs cdiVersion 0.5.0 or later (declared 0.4.0)",
            "$.devices[0].containerEdits.deviceNodes[0].hostPath: deviceNodes[].hostPath needs cdiVersion 0.5.0 "
            "or later (declared 0.4.0)"});
  auto annotated = problems_with([](json& s) { s["annotations"] = json::object(); });
  REQUIRE(annotated.size() == 1);
  CHECK_THAT(annotated[0], Catch::StartsWith("$.annotations: ") && Catch::Contains("needs cdiVersion 0.6.0"));
}

TEST_CASE("a cdiVersion that was never released is refused", "[cdi][validate]") {
  auto problems = problems_with([](json& s) { s["cdiVersion"] = "0.9.0"; });
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("$.cdiVersion: "));
}

TEST_CASE("bad kind and device names are refused by the name rules", "[cdi][validate]") {
  auto kind = problems_with([](json& s) { s["kind"] = "example.com"; });
  REQUIRE(kind.size() == 1);
  CHECK_THAT(kind[0], Catch::StartsWith("$.kind: "));
  auto name = problems_with([](json& s) { s["devices"][0]["name"] = "gpu!"; });
  REQUIRE(name.size() == 1);
  CHECK_THAT(name[0], Catch::StartsWith("$.devices[0].name: "));
}

TEST_CASE("a device named twice is refused", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["devices"].push_back(s["devices"][0]); }) ==
        std::vector<std::string>{"$.devices[1].name: device '0' is named twice"});
}

TEST_CASE("a hook name that is no OCI hook is refused", "[cdi][validate]") {
  auto problems = problems_with([](json& s) { s["devices"][0]["containerEdits"]["hooks"][0]["hookName"] = "preStart"; });
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("$.devices[0].containerEdits.hooks[0].hookName: 'preStart' is not an OCI hook"));
}

TEST_CASE("relative container paths, hook paths and device paths are refused", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["containerEdits"]["mounts"][0]["containerPath"] = "lib/a.so"; }) ==
        std::vector<std::string>{"$.containerEdits.mounts[0].containerPath: 'lib/a.so' must be an absolute path"});
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"]["hooks"][0]["path"] = "graft"; }) ==
        std::vector<std::string>{"$.devices[0].containerEdits.hooks[0].path: 'graft' must be an absolute path"});
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"]["deviceNodes"][0]["path"] = "dev/gpu0"; }) ==
        std::vector<std::string>{"$.devices[0].containerEdits.deviceNodes[0].path: 'dev/gpu0' must be an absolute path"});
}

TEST_CASE("a device without edits and a spec without devices are refused", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"] = json::object(); }) ==
        std::vector<std::string>{"$.devices[0].containerEdits: a device must have edits"});
  CHECK(problems_with([](json& s) { s["devices"] = json::array(); }) ==
        std::vector<std::string>{"$.devices: a spec must have at least one device"});
}

TEST_CASE("wrong value types are named", "[cdi][validate]") {
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"]["deviceNodes"][0]["major"] = "195"; }) ==
        std::vector<std::string>{"$.devices[0].containerEdits.deviceNodes[0].major: expected an integer"});
  CHECK(problems_with([](json& s) { s["devices"][0]["containerEdits"]["deviceNodes"][0]["type"] = "x"; }) ==
        std::vector<std::string>{"$.devices[0].containerEdits.deviceNodes[0].type: 'x' is not one of c, b, u, p"});
}
