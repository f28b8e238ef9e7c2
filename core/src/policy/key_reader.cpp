// SPDX-License-Identifier: Apache-2.0
// Key checking for policy tables: unknown keys with a suggestion.
#include "policy/key_reader.hpp"

#include <fmt/format.h>

namespace graft::policy_parse {

Error unknown_key(const TomlField& table, const toml::key& key,
                  std::span<const std::string_view> known) {
  std::string path = table.child(key.str(), table.node).key;
  return error_at(origin_of(key.source(), *table.file), path,
                  "unknown key" + did_you_mean(key.str(), known));
}

}  // namespace graft::policy_parse
