// SPDX-License-Identifier: Apache-2.0
// The origin table of a policy (Policy::key_origins): every key and table a
// file sets, by dotted key, with the position and TOML text it was written
// with and what it replaced. Filled in one walk over each file as it is
// applied, so every section gets origins without its reader knowing.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "policy/policy.hpp"

namespace graft::policy_parse {

// Notes every key and table of `root` (one file, `file` its path) over what
// earlier files noted; returns the dotted keys (not tables) whose value an
// earlier file had set. `include`, `drop_ins` are directives, not settings;
// `rules` and `rule_modules` accumulate, so they replace nothing.
std::vector<std::string> note_origins(const toml::table& root, const std::string& file,
                                      std::map<std::string, KeyOrigin>& origins);

// Whether a key belongs to a section whose override can weaken the node:
// [requests], [defaults], [limits], [plugins], [runtime], [audit].
bool is_security_relevant(const std::string& key);

}  // namespace graft::policy_parse
