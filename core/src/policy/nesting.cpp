// SPDX-License-Identifier: Apache-2.0
#include "policy/nesting.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace graft::policy_parse {

namespace {

// The dots of a line's key part, outside quotes: before its first `=`, or
// inside its [header]. A line in a multi-line string is read the same way,
// which can only refuse a line no policy has.
std::size_t key_dots(std::string_view line) {
  std::size_t dots = 0;
  char quote = 0;
  bool header = !line.empty() && line.front() == '[';
  for (char c : line) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '.') {
      ++dots;
    } else if ((c == '=' && !header) || (c == ']' && header) || c == '#') {
      break;
    }
  }
  return dots;
}

}  // namespace

Status check_key_depth(std::string_view text, const std::string& path) {
  std::size_t number = 1;
  for (std::size_t at = 0; at < text.size(); ++number) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (key_dots(line) >= kMaxKeyParts)
      return make_error("{}:{}: a key of more than {} parts", path, number, kMaxKeyParts);
    at = end + 1;
  }
  return ok_status();
}

}  // namespace graft::policy_parse
