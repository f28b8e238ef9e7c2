// SPDX-License-Identifier: Apache-2.0
// The hook's Request: the OCI state's bundle, ids and annotations together.
#include <catch2/catch.hpp>

#include <fstream>

#include "request/oci_state.hpp"
#include "request/request.hpp"
#include "temp_dir.hpp"

using namespace graft;

TEST_CASE("the state's annotations join those of config.json", "[request]") {
  Request request;
  request.annotations = {{"example.com/from-config", "1"}};
  add_state_annotations(request, {{"example.com/from-state", "2"}});
  CHECK(request.annotations == std::map<std::string, std::string>{
                                   {"example.com/from-config", "1"}, {"example.com/from-state", "2"}});
}

TEST_CASE("config.json's annotation stands where the state names the same key", "[request]") {
  Request request;
  request.annotations = {{"example.com/tenant", "config"}};
  add_state_annotations(request, {{"example.com/tenant", "state"}});
  CHECK(request.annotations.at("example.com/tenant") == "config");
}

TEST_CASE("a state request reads its bundle and carries the state's id, pid and annotations",
          "[request]") {
  fixture::TempDir bundle{"graft-state-bundle-"};
  std::ofstream(bundle.path() + "/config.json")
      << R"({"root":{"path":"rootfs"},"annotations":{"a":"config"}})";
  OciState state{.id = "c7", .pid = 99, .bundle = bundle.path(), .status = "creating",
                 .annotations = {{"a", "state"}, {"b", "state"}}};
  auto request = request_from_state(state);
  REQUIRE(request);
  CHECK(request->container_id == "c7");
  CHECK(request->pid == 99);
  CHECK(request->bundle == bundle.path());
  CHECK(request->annotations.at("a") == "config");
  CHECK(request->annotations.at("b") == "state");
}

TEST_CASE("a state whose bundle has no config.json is an error naming the file", "[request]") {
  fixture::TempDir bundle{"graft-state-bundle-"};
  OciState state{.id = "c7", .pid = 99, .bundle = bundle.path()};
  auto request = request_from_state(state);
  REQUIRE_FALSE(request);
  CHECK_THAT(request.error().message, Catch::Contains(bundle.path() + "/config.json"));
}
