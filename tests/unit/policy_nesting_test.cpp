// SPDX-License-Identifier: Apache-2.0
// A policy nested absurdly deep is one error line, not a crash: the policy
// may come from a ConfigMap, and `policy check`, the node agent and the hook
// all walk what it parses.
#include <string>

#include <catch2/catch.hpp>

#include "policy/nesting.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace {

std::string dotted_data_key(std::size_t levels) {
  std::string key = "data";
  for (std::size_t i = 0; i < levels; ++i) key += ".a";
  return key + " = 1\n";
}

}  // namespace

TEST_CASE("a [data] key 60,000 tables deep is one error naming the file, not a crash", "[policy][hostile]") {
  std::string message = error_in_file(dotted_data_key(60'000));
  CHECK(message == "F:1: a key of more than 64 parts");
}

TEST_CASE("a [data.a.a...] header 60,000 parts long is one error naming the file, not a crash", "[policy][hostile]") {
  std::string header = "[" + dotted_data_key(60'000);
  header.replace(header.find(" = 1"), 4, "]");
  CHECK(error_in_file("# a comment line first\n" + header) == "F:2: a key of more than 64 parts");
}

TEST_CASE("a [data] key nested as deep as the bound allows loads", "[policy][hostile]") {
  PolicyFiles files;
  CHECK(load_policy(files.write("graft.toml", dotted_data_key(policy_parse::kMaxKeyParts - 1)), PolicySearch{}));
}
