// SPDX-License-Identifier: Apache-2.0
// Reading one parsed policy file onto the policy merged so far. Each reader
// sets only what the file mentions, so applying files in merge order gives
// "later files override earlier ones" without a separate merge step.
#pragma once

#include <toml++/toml.h>

#include <string_view>
#include <vector>

#include "policy/policy.hpp"
#include "policy/toml_field.hpp"

namespace graft::policy_parse {

// Top level of one file. `include` and `drop_ins` are accepted but left to the
// loader, which has already acted on them.
Status apply_file(const toml::table& root, const FileContext& file, Policy& policy);

// Named tables merged key by key: [capability.*], [device.*], [extra.*].
Status read_capabilities(const TomlField& field, Policy& policy, const FileContext& file);
Status read_devices(const TomlField& field, Policy& policy, const FileContext& file);
Status read_extras(const TomlField& field, Policy& policy, const FileContext& file);
Status read_samples(const TomlField& field, Policy& policy, const FileContext& file);

// [discovery] and [procfs]: where the host is read, and what procfs shows.
Status read_discovery(const TomlField& field, Policy& policy, const FileContext& file);
// The keys of one GPU source, which [discovery] and [vendor.NAME] share.
std::vector<std::string_view> gpu_discovery_keys();
Status read_procfs(const TomlField& field, Policy& policy, const FileContext& file);
Status read_vendors(const TomlField& field, Policy& policy, const FileContext& file);
// [vendor.NAME.places]: a vendor-layer file's declaration; a site file's is
// kept aside, unused, for `policy check` to name (read_places.cpp).
Status read_vendor_places(const TomlField& field, Vendor& vendor, const FileContext& file);

}  // namespace graft::policy_parse
