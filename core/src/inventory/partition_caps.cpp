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

void PartitionCaps::insert(std::string_view name, unsigned minor, bool replace) {
  // Names mostly come in order, and those that do not come in runs (a
  // driver lists gi10 after gi9 and its compute instances after it): the
  // place just after the last insert is tried first.
  auto at = entries_.cbegin() + static_cast<std::ptrdiff_t>(std::min(last_ + 1, entries_.size()));
  bool after_last = last_ < entries_.size() && name_of(entries_[last_]) < name;
  if (!after_last || (at != entries_.end() && !(name < name_of(*at)))) at = lower_bound(name);
  if (at != entries_.end() && name_of(*at) == name) {
    if (replace) entries_[static_cast<std::size_t>(at - entries_.begin())].minor = minor;
    return;
  }
  Entry entry{static_cast<std::uint32_t>(names_.size()), static_cast<std::uint32_t>(name.size()), minor};
  names_.append(name);
  last_ = static_cast<std::size_t>(entries_.insert(at, entry) - entries_.begin());
}

}  // namespace graft
