// SPDX-License-Identifier: Apache-2.0
// Expands the granted capability sets (plus every `always` set) into the
// items they bring, following `pulls`, each item keeping the set that
// brought it and the policy line that listed it.
#pragma once

#include <string>
#include <vector>

#include "intent/intent.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"

namespace graft {

struct CapabilityItem {
  std::string value;      // library prefix, binary name, device class, path...
  std::string capability; // the granted set this came through ("video")
  std::string via;        // "" or "compute.libraries" when pulled
  Origin origin;          // where the policy lists the item
};

struct CapabilityItems {
  std::vector<std::string> sets;  // granted + always, in grant order
  bool lib32 = false;
  std::vector<CapabilityItem> libraries, binaries, firmware, ipc, devices, config_files;
  std::vector<SymlinkSpec> symlinks;
  std::vector<std::string> symlink_sets;  // set of each symlink, parallel to symlinks
};

CapabilityItems expand_capabilities(const Intent& intent, const Policy& policy);

// How an action brought by `item` is explained: its set, and the pull it came through.
Provenance provenance_of(const CapabilityItem& item);

}  // namespace graft
