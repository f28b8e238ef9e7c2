// `graft policy show`: the merged policy as this node runs it (files in
// merge order, every section's effective values, [data], the capability sets
// with what their `pulls` bring, device classes, rule files with the rules
// they register and their phases, rule modules), as JSON for tools or as
// TOML for people. Where the loader keeps an origin, the entry carries it: in
// JSON an item is {"value", "origin"}; in TOML it is the value with a
// "# file:line" comment. The TOML parses back (as TOML: it is a report of the
// policy, not a policy file to include).
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

// TEXT as a TOML basic string ("double-quoted", escaped as toml++ writes it):
// how `graft policy show` and `graft policy test` quote values.
std::string toml_quoted(const std::string& text);

}  // namespace graft
