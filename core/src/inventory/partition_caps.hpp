// SPDX-License-Identifier: Apache-2.0
// PartitionCaps: the partition capability minors discovery keeps
// ([discovery] partition_minors: name -> minor), sorted by name. A driver
// lists every possible partition of every possible GPU, so even the host's
// own share is a thousand names or more on each start: they are kept in one
// buffer with a sorted index, not as a map node and a string each (building
// and freeing that map was a sixth of a `graft plan`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace graft {

class PartitionCaps {
  struct Entry {
    std::uint32_t offset;
    std::uint32_t size;
    unsigned minor;
  };

 public:
  using value_type = std::pair<std::string_view, unsigned>;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = PartitionCaps::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    const_iterator() = default;
    value_type operator*() const { return {caps_->name_of(*entry_), entry_->minor}; }
    const_iterator& operator++() {
      ++entry_;
      return *this;
    }
    const_iterator operator++(int) {
      auto before = *this;
      ++entry_;
      return before;
    }
    bool operator==(const const_iterator& other) const { return entry_ == other.entry_; }

   private:
    friend class PartitionCaps;
    const_iterator(const PartitionCaps* caps, std::vector<Entry>::const_iterator entry)
        : caps_(caps), entry_(entry) {}
    const PartitionCaps* caps_ = nullptr;
    std::vector<Entry>::const_iterator entry_;
  };

  PartitionCaps() = default;
  PartitionCaps(std::initializer_list<value_type> entries) {
    for (const auto& [name, minor] : entries) set(name, minor);
  }

  // The capabilities of a whole listing, in the driver's order: as add() of
  // each in turn, but the listing's sorted runs are merged rather than each
  // name put in its place. A driver lists near order only up to ten GPUs:
  // "gpu10" sorts before "gpu2", and inserting each of its names moved the
  // names after it (on a 32-GPU listing, most of discovery's time).
  static PartitionCaps from_listing(std::span<const value_type> listing);

  // Adds `name` unless it is there: a name listed twice keeps its first minor.
  // Constant time when names come in order (lower_bound tries the end first).
  void add(std::string_view name, unsigned minor) { insert(name, minor, false); }
  // Adds `name`, or gives it `minor` if it is there.
  void set(std::string_view name, unsigned minor) { insert(name, minor, true); }

  std::optional<unsigned> find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name).has_value(); }
  // The first entry whose name sorts after `name`.
  const_iterator after(std::string_view name) const;
  std::size_t size() const { return entries_.size(); }
  const_iterator begin() const { return {this, entries_.begin()}; }
  const_iterator end() const { return {this, entries_.end()}; }

 private:
  std::string_view name_of(const Entry& entry) const { return {names_.data() + entry.offset, entry.size}; }

  // The first entry whose name is not below `name`.
  std::vector<Entry>::const_iterator lower_bound(std::string_view name) const;
  void insert(std::string_view name, unsigned minor, bool replace);

  std::string names_;           // every name, in the order added
  std::vector<Entry> entries_;  // sorted by name
};

}  // namespace graft
