// SPDX-License-Identifier: Apache-2.0
// Lookup and insertion for partition_caps.hpp.
#include "inventory/partition_caps.hpp"

#include <algorithm>

namespace graft {

std::optional<unsigned> PartitionCaps::find(std::string_view name) const {
  auto at = lower_bound(name);
  if (at == entries_.end() || name_of(*at) != name) return std::nullopt;
  return at->minor;
}

PartitionCaps::const_iterator PartitionCaps::after(std::string_view name) const {
  auto at = lower_bound(name);
  if (at != entries_.end() && name_of(*at) == name) ++at;
  return {this, at};
}

std::vector<PartitionCaps::Entry>::const_iterator PartitionCaps::lower_bound(std::string_view name) const {
  // A name after the last is the common case: the driver lists in near order.
  if (entries_.empty() || name_of(entries_.back()) < name) return entries_.end();
  return std::lower_bound(entries_.begin(), entries_.end(), name,
                          [this](const Entry& entry, std::string_view key) { return name_of(entry) < key; });
}

PartitionCaps PartitionCaps::from_listing(std::span<const value_type> listing) {
  PartitionCaps caps;
  std::size_t bytes = 0;
  for (const auto& entry : listing) bytes += entry.first.size();
  caps.names_.reserve(bytes);
  caps.entries_.reserve(listing.size());
  for (const auto& [name, minor] : listing) {
    caps.entries_.push_back(
        {static_cast<std::uint32_t>(caps.names_.size()), static_cast<std::uint32_t>(name.size()), minor});
    caps.names_.append(name);
  }
  auto less = [&caps](const Entry& a, const Entry& b) { return caps.name_of(a) < caps.name_of(b); };
  auto first = caps.entries_.begin();
  // Where each sorted run starts, then pairs of neighbouring runs merged
  // until one is left. The merge is stable: equal names stay in listing order.
  std::vector<std::size_t> runs{0};
  for (std::size_t i = 1; i < caps.entries_.size(); ++i)
    if (less(caps.entries_[i], caps.entries_[i - 1])) runs.push_back(i);
  runs.push_back(caps.entries_.size());
  while (runs.size() > 2) {
    std::vector<std::size_t> merged{0};
    std::size_t run = 0;
    for (; run + 2 < runs.size(); run += 2) {
      std::inplace_merge(first + runs[run], first + runs[run + 1], first + runs[run + 2], less);
      merged.push_back(runs[run + 2]);
    }
    if (run + 1 < runs.size()) merged.push_back(runs[run + 1]);  // the last run, unpaired
    runs = std::move(merged);
  }
  // A name listed twice keeps its first minor.
  auto same = [&caps](const Entry& a, const Entry& b) { return caps.name_of(a) == caps.name_of(b); };
  caps.entries_.erase(std::unique(caps.entries_.begin(), caps.entries_.end(), same), caps.entries_.end());
  return caps;
}

void PartitionCaps::insert(std::string_view name, unsigned minor, bool replace) {
  auto at = lower_bound(name);
  if (at != entries_.end() && name_of(*at) == name) {
    if (replace) entries_[static_cast<std::size_t>(at - entries_.begin())].minor = minor;
    return;
  }
  Entry entry{static_cast<std::uint32_t>(names_.size()), static_cast<std::uint32_t>(name.size()), minor};
  names_.append(name);
  entries_.insert(at, entry);
}

}  // namespace graft
