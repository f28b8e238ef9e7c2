// SPDX-License-Identifier: Apache-2.0
// Shipped TOML files are parsed without their comment lines
// (core/src/policy/uncommented_toml.hpp): only a byte-for-byte shipped text,
// and only when the uncommented text parses to the same document, every node
// where it was.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "policy/uncommented_toml.hpp"
#include "skip.hpp"

using graft::blank_comment_lines;
using graft::kUncommentedToml;
using graft::same_toml;
using graft::toml_to_parse;
using graft::UncommentedToml;

namespace {

std::string shipped(const std::string& relative) {
  std::ifstream in(std::string(GRAFT_SOURCE_DIR) + "/" + relative, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool same_document(std::string_view a, std::string_view b) {
  using namespace std::string_view_literals;
  return same_toml(toml::parse(a, "a.toml"sv), toml::parse(b, "a.toml"sv));
}

void skip_without_forms() {
  if (kUncommentedToml.empty()) GRAFT_SKIP("this build has no uncommented forms (a cross build)");
}

}  // namespace

TEST_CASE("the shipped vendor and example policies are parsed without their comment lines",
          "[uncommented_toml]") {
  skip_without_forms();
  for (const char* file : {"policies/nvidia/nvidia.toml", "policies/examples/example-site.toml"}) {
    INFO(file);
    std::string text = shipped(file);
    REQUIRE(text.size() > 0);
    std::string_view parsed = toml_to_parse(text);
    CHECK(parsed.size() < text.size());
    CHECK(parsed == blank_comment_lines(text));
  }
}

TEST_CASE("a shipped file without its comment lines is the same document, every node where it was",
          "[uncommented_toml]") {
  skip_without_forms();
  for (const UncommentedToml& file : kUncommentedToml) {
    INFO(file.text.substr(0, 80));
    CHECK(same_document(file.text, file.uncommented));
  }
}

TEST_CASE("text that differs from a shipped file by one byte is parsed as it is", "[uncommented_toml]") {
  const UncommentedToml file{"# about x\nx = 1\n", "\nx = 1\n"};
  CHECK(toml_to_parse("# about x\nx = 1\n", {&file, 1}) == "\nx = 1\n");
  CHECK(toml_to_parse("# about x\nx = 2\n", {&file, 1}) == "# about x\nx = 2\n");
}

TEST_CASE("only lines that start with '#' are emptied, and every newline stays", "[uncommented_toml]") {
  CHECK(blank_comment_lines("# a\nx = 1 # b\n  # c\n\ny = '#'\n#") == "\nx = 1 # b\n\n\ny = '#'\n");
  CHECK(same_document("# a\nx = 1 # b\n  # c\n\ny = '#'\n", "\nx = 1 # b\n\n\ny = '#'\n"));
}

TEST_CASE("a '#' line inside a multi-line string is not a comment, and the check sees it",
          "[uncommented_toml]") {
  std::string text = "s = \"\"\"\n# kept\n\"\"\"\nt = '''\n#x\n'''\n";
  CHECK_FALSE(same_document(text, blank_comment_lines(text)));
}

TEST_CASE("the check sees a value, a flag or a position that moved", "[uncommented_toml]") {
  CHECK(same_document("x = 1\n[t]\ny = [1, 'a']\n", "x = 1\n[t]\ny = [1, 'a']\n"));
  CHECK_FALSE(same_document("x = 1\n", "x = 2\n"));
  CHECK_FALSE(same_document("x = 16\n", "x = 0x10\n"));
  CHECK_FALSE(same_document("x = 1\n", "\nx = 1\n"));
  CHECK_FALSE(same_document("x = 1\n", " x = 1\n"));
  CHECK_FALSE(same_document("[t]\ny = 1\n", "t = { y = 1 }\n"));
}
