// SPDX-License-Identifier: Apache-2.0
// Text that must stay one line on a terminal or in a log, whatever it quotes.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace graft {

// Appends `text` to `out` with every control character escaped (\n, \r,
// \xNN), so an error or refusal that quotes a container's env value, id or
// path stays one line.
inline void append_one_line(std::string& out, std::string_view text) {
  auto needs_escape = [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  };
  // Most text has nothing to escape: one copy, not an append per character.
  auto first = std::find_if(text.begin(), text.end(), needs_escape);
  out.append(text.begin(), first);
  if (first == text.end()) return;
  out.reserve(out.size() + text.size() + 8);
  for (char c : text.substr(static_cast<std::size_t>(first - text.begin()))) {
    auto byte = static_cast<unsigned char>(c);
    if (!needs_escape(c)) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
}

// `text` with every control character escaped, as append_one_line does.
inline std::string one_line(std::string_view text) {
  std::string out;
  append_one_line(out, text);
  return out;
}

}  // namespace graft
