// SPDX-License-Identifier: Apache-2.0
// Which of a few dozen name prefixes a name starts with, for the thousands of
// names in a host's ld.so.cache: prefixes are grouped by their first
// characters (as many as the shortest prefix has), so a name that starts with
// none of them costs a binary search of the groups, not a comparison with
// each prefix.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace graft {

class PrefixIndex {
 public:
  explicit PrefixIndex(const std::vector<std::string>& prefixes);
  PrefixIndex(const PrefixIndex&) = delete;  // the groups view its own strings
  PrefixIndex& operator=(const PrefixIndex&) = delete;

  // Whether `name` starts with any of the prefixes.
  bool matches(std::string_view name) const {
    const auto* group = group_of(name);
    return group != nullptr && std::any_of(group->begin(), group->end(), [&](std::size_t i) {
             return name.starts_with(prefixes_[i]);
           });
  }

  // Calls `found(i)` for each prefixes[i] that `name` starts with, in
  // increasing i.
  template <class Found>
  void each_prefix_of(std::string_view name, Found&& found) const {
    if (const auto* group = group_of(name))
      for (std::size_t i : *group)
        if (name.starts_with(prefixes_[i])) found(i);
  }

 private:
  using Group = std::pair<std::string_view, std::vector<std::size_t>>;  // head, prefix indexes

  static bool head_before(const Group& group, std::string_view head) { return group.first < head; }

  // The indexes of the prefixes that share `name`'s head, or null.
  const std::vector<std::size_t>* group_of(std::string_view name) const {
    if (name.size() < head_ || groups_.empty()) return nullptr;  // every prefix is longer
    std::string_view head = name.substr(0, head_);
    auto group = std::lower_bound(groups_.begin(), groups_.end(), head, head_before);
    return group == groups_.end() || group->first != head ? nullptr : &group->second;
  }

  std::vector<std::string> prefixes_;
  std::size_t head_ = 0;       // the length every prefix has at least
  std::vector<Group> groups_;  // sorted by head; views into prefixes_
};

}  // namespace graft
