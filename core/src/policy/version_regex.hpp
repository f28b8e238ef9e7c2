// SPDX-License-Identifier: Apache-2.0
// The compiled form of [discovery] version_pattern (policy.hpp names it
// only by a forward declaration: <regex> is a heavy header).
#pragma once

#include <locale>
#include <regex>

namespace graft {

// std::regex_traits<char> with a cheaper primary collation key in the
// classic locale. libstdc++ fills each bracket expression's (\s, [0-9], ...)
// 256-entry table by asking transform_primary about every character, even
// when the expression has no [[=x=]] class to compare the key with, and the
// standard key goes through the locale's ctype and collate facets with two
// allocations each time: 1.2 M instructions for the shipped pattern, a tenth
// of a `graft plan`. In the classic locale that key is the character
// lower-cased (its collation is byte order), which is what this returns; in
// any other locale it defers to the standard one.
struct ClassicKeyRegexTraits : std::regex_traits<char> {
  template <typename Iterator>
  string_type transform_primary(Iterator first, Iterator last) const {
    if (getloc() != std::locale::classic()) return std::regex_traits<char>::transform_primary(first, last);
    string_type key(first, last);
    for (char& c : key)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return key;
  }
};

struct VersionRegex {
  using Pattern = std::basic_regex<char, ClassicKeyRegexTraits>;
  Pattern pattern;
};

}  // namespace graft
