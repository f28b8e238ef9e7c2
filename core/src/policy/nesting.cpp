// SPDX-License-Identifier: Apache-2.0
#include "policy/nesting.hpp"

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "policy/toml_field.hpp"

namespace graft::policy_parse {

Status check_nesting(const toml::table& root, const std::string& path) {
  std::vector<std::pair<const toml::node*, std::size_t>> pending{{&root, 0}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (depth > kMaxNesting)
      return make_error("{}: tables and arrays nested deeper than {} levels", origin_of(node->source(), path).full(),
                        kMaxNesting);
    if (const auto* table = node->as_table())
      for (const auto& [key, child] : *table) pending.emplace_back(&child, depth + 1);
    else if (const auto* array = node->as_array())
      for (const auto& child : *array) pending.emplace_back(&child, depth + 1);
  }
  return ok_status();
}

}  // namespace graft::policy_parse
