// SPDX-License-Identifier: Apache-2.0
// Reading CDI specs written in YAML (cdi/cdi_yaml.hpp): the JSON document
// the validator judges, typed as YAML 1.2's core schema types plain scalars,
// and bounded against hostile files.
#include <catch2/catch.hpp>

#include <string>

#include "cdi/cdi_yaml.hpp"

using namespace graft::cdi;
using nlohmann::json;

TEST_CASE("a block-style spec reads as the JSON document it stands for", "[cdi][yaml]") {
  auto document = parse_yaml(
      "cdiVersion: \"0.5.0\"\n"
      "kind: example.com/gpu\n"
      "devices:\n"
      "  - name: \"0\"\n"
      "    containerEdits:\n"
      "      deviceNodes:\n"
      "        - path: /dev/gpu0\n"
      "          major: 195\n"
      "          minor: 0\n"
      "          permissions: rw\n");
  REQUIRE(document);
  json expected = json::parse(R"({"cdiVersion":"0.5.0","kind":"example.com/gpu","devices":[{"name":"0",
      "containerEdits":{"deviceNodes":[{"path":"/dev/gpu0","major":195,"minor":0,"permissions":"rw"}]}}]})");
  CHECK(*document == expected);
}

TEST_CASE("plain scalars take the core schema's types and quoted ones stay strings", "[cdi][yaml]") {
  auto document = parse_yaml(
      "int: 12\nnegative: -3\nhex: 0x1f\noctal: 0o17\nreal: 2.5\nyes: true\nno: False\nnothing: ~\n"
      "empty:\nquoted: \"12\"\nsingle: 'true'\ntagged: !!str 7\nword: rw\nversion: 0.5.0\n");
  REQUIRE(document);
  CHECK((*document)["int"] == 12);
  CHECK((*document)["negative"] == -3);
  CHECK((*document)["hex"] == 31);
  CHECK((*document)["octal"] == 15);
  CHECK((*document)["real"] == 2.5);
  CHECK((*document)["yes"] == true);
  CHECK((*document)["no"] == false);
  CHECK((*document)["nothing"].is_null());
  CHECK((*document)["empty"].is_null());
  CHECK((*document)["quoted"] == "12");
  CHECK((*document)["single"] == "true");
  CHECK((*document)["tagged"] == "7");
  CHECK((*document)["word"] == "rw");
  CHECK((*document)["version"] == "0.5.0");  // not a number in the core schema
}

TEST_CASE("a YAML syntax error names its line", "[cdi][yaml]") {
  auto document = parse_yaml("kind: example.com/gpu\ndevices: [\n  - name: x\n");
  REQUIRE_FALSE(document);
  CHECK_THAT(document.error().message, Catch::StartsWith("line "));
}

TEST_CASE("an alias bomb is refused once it passes the node budget", "[cdi][yaml]") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'j'; ++level)
    bomb += std::string(1, level) + ": &" + level + " [*" + char(level - 1) + ", *" + char(level - 1) + ", *" +
            char(level - 1) + ", *" + char(level - 1) + ", *" + char(level - 1) + ", *" + char(level - 1) +
            ", *" + char(level - 1) + ", *" + char(level - 1) + ", *" + char(level - 1) + ", *" +
            char(level - 1) + "]\n";
  auto document = parse_yaml(bomb);
  REQUIRE_FALSE(document);
  CHECK_THAT(document.error().message, Catch::Contains("YAML nodes once aliases are expanded"));
}

TEST_CASE("nesting deeper than any spec needs is refused", "[cdi][yaml]") {
  auto document = parse_yaml(std::string(200, '[') + std::string(200, ']'));
  REQUIRE_FALSE(document);
  CHECK_THAT(document.error().message, Catch::Contains("nested deeper than"));
}
