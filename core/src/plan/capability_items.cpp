// SPDX-License-Identifier: Apache-2.0
#include "plan/capability_items.hpp"

#include <set>

namespace graft {
namespace {

using ItemList = std::vector<SourcedString> CapabilitySet::*;

struct FieldSlot {
  const char* name;
  ItemList field;
  std::vector<CapabilityItem> CapabilityItems::*items;
};

constexpr FieldSlot field_slots[] = {
    {"libraries", &CapabilitySet::libraries, &CapabilityItems::libraries},
    {"binaries", &CapabilitySet::binaries, &CapabilityItems::binaries},
    {"firmware", &CapabilitySet::firmware, &CapabilityItems::firmware},
    {"ipc", &CapabilitySet::ipc, &CapabilityItems::ipc},
    {"devices", &CapabilitySet::devices, &CapabilityItems::devices},
    {"config_files", &CapabilitySet::config_files, &CapabilityItems::config_files},
};

void add_field(const CapabilitySet& source, const FieldSlot& slot, const std::string& granted,
               const std::string& via, CapabilityItems& items) {
  for (const auto& entry : source.*slot.field)
    (items.*slot.items).push_back({entry.value, granted, via, entry.origin});
}

// `pulls` entries are "<set>.<field>"; the loader has validated both parts.
void add_pulls(const CapabilitySet& set, const Policy& policy, CapabilityItems& items) {
  for (const auto& pull : set.pulls) {
    auto dot = pull.value.find('.');
    auto source = policy.capabilities.find(pull.value.substr(0, dot));
    if (source == policy.capabilities.end()) continue;
    std::string field = pull.value.substr(dot + 1);
    for (const auto& slot : field_slots)
      if (field == slot.name) add_field(source->second, slot, set.name, pull.value, items);
    if (field == "symlinks")
      for (const auto& link : source->second.symlinks) {
        items.symlinks.push_back(link);
        items.symlink_sets.push_back(set.name);
      }
  }
}

void add_set(const CapabilitySet& set, const Policy& policy, CapabilityItems& items) {
  items.sets.push_back(set.name);
  items.lib32 = items.lib32 || set.lib32;
  for (const auto& slot : field_slots) add_field(set, slot, set.name, "", items);
  for (const auto& link : set.symlinks) {
    items.symlinks.push_back(link);
    items.symlink_sets.push_back(set.name);
  }
  add_pulls(set, policy, items);
}

}  // namespace

Provenance provenance_of(const CapabilityItem& item) {
  return {item.capability, item.via.empty() ? item.capability : "via " + item.via, item.origin};
}

CapabilityItems expand_capabilities(const Intent& intent, const Policy& policy) {
  CapabilityItems items;
  std::set<std::string> done;
  for (const auto& [name, set] : policy.capabilities)
    if (set.always && intent.for_vendor(set.vendor) && done.insert(name).second) add_set(set, policy, items);
  for (const auto& grant : intent.capabilities) {
    auto set = policy.capabilities.find(grant.name);
    if (set != policy.capabilities.end() && done.insert(grant.name).second)
      add_set(set->second, policy, items);
  }
  return items;
}

}  // namespace graft
