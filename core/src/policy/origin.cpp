// SPDX-License-Identifier: Apache-2.0
#include "policy/origin.hpp"

#include <fmt/format.h>

namespace graft {

std::string Origin::brief() const {
  if (file.empty()) return "builtin";
  auto slash = file.rfind('/');
  std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  return line > 0 ? fmt::format("{}:{}", name, line) : name;
}

std::string Origin::full() const {
  if (file.empty()) return "builtin";
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

}  // namespace graft
