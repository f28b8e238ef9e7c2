// SPDX-License-Identifier: Apache-2.0
// `graft policy show`: the merged policy as this node runs it (files in
// merge order, every section's effective values, [data], the capability sets
// with what their `pulls` bring, device classes, rule files with the rules
// they register and their phases, rule modules), as JSON for tools or as
// TOML for people. Where the loader keeps an origin, the entry carries it: in
// JSON an item is {"value", "origin"}; in TOML it is the value with a
// "# file:line" comment. The TOML parses back (as TOML: it is a report of the
// policy, not a policy file to include). Every key and table a file set
// carries its origin and what it overrode (Policy::key_origins): in JSON
// under "origins", in TOML in a comment on its line.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/policy.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

inline constexpr const char* policy_show_schema_id = "graft.policy-show/v1";

// `rules` are the registered rules (registered_rules()), shown in run order.
nlohmann::ordered_json render_policy_json(const Policy& policy, const std::vector<RuleActivity>& rules);
std::string render_policy_toml(const Policy& policy, const std::vector<RuleActivity>& rules);

// One entry of Policy::key_origins: {"origin", "value", "overrode": {"origin",
// "value"}} for a key, {"origin", "merged_over": {"origin"}} for a table.
// render_policy_json puts every entry under "origins", by dotted key.
nlohmann::ordered_json key_origin_json(const KeyOrigin& entry);
// The same as a line: "FILE:LINE:COL, over VALUE from FILE:LINE:COL".
std::string key_origin_text(const KeyOrigin& entry);

// A security-relevant key a later site file set over an earlier one's, as
// `policy check` warns of it: "requests.unprivileged = [...] at FILE:LINE:COL
// overrides [...] from FILE:LINE:COL".
std::string override_text(const SettingOverride& found);

// TEXT as a TOML basic string ("double-quoted", escaped as toml++ writes it):
// how `graft policy show` and `graft policy test` quote values.
std::string toml_quoted(const std::string& text);

}  // namespace graft
