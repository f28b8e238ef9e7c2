// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/owned_file.hpp"

#include <fmt/format.h>

#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {
namespace {

bool written_by_graft(const std::string& text) {
  return text.starts_with(std::string(kWrittenByGraft) + "\n");
}

}  // namespace

std::string toml_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      quoted += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
    else
      quoted += c;
  }
  return quoted + "\"";
}

Result<std::string> owned_file_configured(const std::optional<std::string>& before, const std::string& body) {
  if (before && !written_by_graft(*before))
    return make_error("is there and was not written by graft (its first line is not graft's): left as it is");
  return std::string(kWrittenByGraft) + "\n" + body;
}

Result<std::optional<std::string>> owned_file_removed(const std::optional<std::string>& before) {
  if (before && !written_by_graft(*before))
    return make_error("was not written by graft (its first line is not graft's): left as it is");
  return std::optional<std::string>();
}

}  // namespace graft::runtime_config
