// SPDX-License-Identifier: Apache-2.0
// The traits [discovery] version_pattern compiles with
// (core/src/policy/version_regex.hpp): a cheaper primary collation key that
// is, character for character, the standard one in the classic locale, so a
// pattern matches exactly what std::regex would match.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "policy/version_regex.hpp"

using graft::ClassicKeyRegexTraits;

TEST_CASE("the version pattern's traits give every character the standard primary collation key",
          "[version_regex]") {
  std::regex_traits<char> standard;
  ClassicKeyRegexTraits classic;
  for (int c = 0; c < 256; ++c) {
    char ch = static_cast<char>(c);
    INFO(c);
    CHECK(classic.transform_primary(&ch, &ch + 1) == standard.transform_primary(&ch, &ch + 1));
  }
  std::string word = "Kernel Module";
  CHECK(classic.transform_primary(word.begin(), word.end()) ==
        standard.transform_primary(word.begin(), word.end()));
}

TEST_CASE("a pattern with classes, ranges and an equivalence class matches as std::regex does",
          "[version_regex]") {
  const char* patterns[] = {R"(Kernel Module(?: for \S+)?\s+([0-9]+(?:\.[0-9]+)+))", R"([[=a=]]+([^\s]*))",
                            R"(([[:upper:]][a-z0-9_]*)\d)"};
  const char* texts[] = {"NVRM version: NVIDIA UNIX x86_64 Kernel Module  560.35.03  Fri Aug 16",
                         "Kernel Module for x86_64  570.86.15 ", "aAaB tail", "xyz Abc_1", "none", ""};
  for (const char* pattern : patterns) {
    std::regex standard(pattern, std::regex::ECMAScript);
    std::basic_regex<char, ClassicKeyRegexTraits> classic(pattern, std::regex::ECMAScript);
    for (std::string text : texts) {
      INFO(pattern << " on '" << text << "'");
      std::smatch by_standard, by_classic;
      bool found = std::regex_search(text, by_standard, standard);
      REQUIRE(std::regex_search(text, by_classic, classic) == found);
      if (!found) continue;
      REQUIRE(by_classic.size() == by_standard.size());
      for (std::size_t i = 0; i < by_standard.size(); ++i) CHECK(by_classic.str(i) == by_standard.str(i));
    }
  }
}
