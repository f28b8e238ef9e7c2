// SPDX-License-Identifier: Apache-2.0
// What the build tools that embed shipped text in graft share: reading a
// file whole, spelling any bytes as a C++ string literal, and writing the
// generated source only when it changed (so nothing recompiles for nothing).
#pragma once

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace graft::tools {

inline std::optional<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) return std::nullopt;
  return text;
}

// A C++ string literal of any bytes, cut into lines.
inline std::string literal(const std::string& bytes) {
  std::string out = "\"";
  std::size_t line = 0;
  for (unsigned char c : bytes) {
    if (line >= 96) {
      out += "\"\n    \"";
      line = 0;
    }
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
      out += static_cast<char>(c);
      line += 1;
    } else {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      out += octal;
      line += 4;
    }
  }
  return out + "\"";
}

inline bool write_if_changed(const std::string& path, const std::string& content) {
  if (read_whole(path) == content) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return static_cast<bool>(out.flush());
}

}  // namespace graft::tools
