// SPDX-License-Identifier: Apache-2.0
// Grouping for prefix_index.hpp.
#include "inventory/prefix_index.hpp"

namespace graft {

PrefixIndex::PrefixIndex(const std::vector<std::string>& prefixes) : prefixes_(prefixes) {
  if (prefixes_.empty()) return;
  head_ = std::min_element(prefixes_.begin(), prefixes_.end(), [](const auto& a, const auto& b) {
            return a.size() < b.size();
          })->size();
  // prefixes_ is not resized from here on, so the views stay valid.
  for (std::size_t i = 0; i < prefixes_.size(); ++i) {
    std::string_view head = std::string_view(prefixes_[i]).substr(0, head_);
    auto group = std::lower_bound(groups_.begin(), groups_.end(), head, head_before);
    if (group == groups_.end() || group->first != head) group = groups_.insert(group, {head, {}});
    group->second.push_back(i);
  }
}

}  // namespace graft
