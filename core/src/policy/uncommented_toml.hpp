// SPDX-License-Identifier: Apache-2.0
// The TOML files graft ships (the vendor policies, the example site policy)
// with their comment lines blanked at build time (core/tools/uncomment_toml.cpp),
// so that a policy file whose text is exactly a shipped one is parsed without
// them: they are most of those files' bytes, and toml++ reads every byte of a
// comment as it reads values (a fifth of a `graft plan` went to toml++).
//
// Only the lines whose first non-blank character is '#' are emptied; every
// newline stays, so every value keeps its line and column. The build checks
// each file with toml++ itself: the uncommented text must parse to the same
// document, node for node and position for position, or the file is left
// out (a '#' line inside a multi-line string would be). At run time, only a
// byte-for-byte match selects the uncommented text.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace graft {

struct UncommentedToml {
  std::string_view text;         // the shipped file
  std::string_view uncommented;  // the same with its comment lines emptied
};

// Defined by the generated file; empty when the build could not run the tool.
extern const std::span<const UncommentedToml> kUncommentedToml;

// What to parse for `text`: its uncommented form if it is a shipped file,
// else `text` itself.
std::string_view toml_to_parse(std::string_view text,
                               std::span<const UncommentedToml> known = kUncommentedToml);

// `text` with each line whose first non-blank character is '#' emptied.
inline std::string blank_comment_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] != '#') out += line;
    if (end == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(end + 1);
  }
  return out;
}

// Whether two parsed documents hold the same nodes, values and flags, each
// beginning at the same source position. (Where a node ends is never read:
// the document's own end moves when its last line is a comment.)
inline bool same_toml(const toml::node& a, const toml::node& b) {
  if (a.type() != b.type() || a.source().begin != b.source().begin) return false;
  if (const auto* table = a.as_table()) {
    const auto& other = *b.as_table();
    if (table->size() != other.size() || table->is_inline() != other.is_inline()) return false;
    for (auto&& [key, node] : *table) {
      auto found = other.find(key.str());
      if (found == other.end() || found->first.source().begin != key.source().begin ||
          !same_toml(node, found->second))
        return false;
    }
    return true;
  }
  if (const auto* array = a.as_array()) {
    const auto& other = *b.as_array();
    if (array->size() != other.size()) return false;
    for (std::size_t i = 0; i < array->size(); ++i)
      if (!same_toml((*array)[i], other[i])) return false;
    return true;
  }
  return a.visit([&](const auto& value) {
    using Value = std::remove_cvref_t<decltype(value)>;
    if constexpr (toml::is_value<Value>) {
      const auto& other = *b.as<typename Value::value_type>();
      return value.flags() == other.flags() && value.get() == other.get();
    } else {
      return false;
    }
  });
}

}  // namespace graft
