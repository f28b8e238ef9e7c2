// Text that must stay one line on a terminal or in a log, whatever it quotes.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace graft {

// `text` with every control character escaped (\n, \r, \xNN), so an error or
// refusal that quotes a container's env value, id or path stays one line.
inline std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
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
  return out;
}

}  // namespace graft
