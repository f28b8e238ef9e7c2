// SPDX-License-Identifier: Apache-2.0
// [data_schema]: a policy's declaration of the shape of its free-form [data]
// (names, types, required keys), read like any section and checked against
// the merged [data] once every file is applied, so a misspelt data key is a
// load error at its file:line instead of a setting that silently vanishes.
#pragma once

#include <functional>
#include <string>

#include "policy/policy.hpp"
#include "policy/toml_field.hpp"

namespace graft::policy_parse {

// [data_schema.NAME] tables, merged key by key across files.
Status read_data_schema(const TomlField& field, Policy& policy, const FileContext& file);

// Checks the merged [data] against the merged schema: each declared key has
// its type (a value of a "table" with `values`, that type), each required key
// is set, and a key no schema declares is an error when the layer of the file
// that set it declares a schema (`in_vendor_layer` says which layer a file is
// in). Nothing is checked when no file declares a schema.
Status check_data(const Policy& policy, const std::function<bool(const std::string& file)>& in_vendor_layer);

// Whether `value` has `type` (a DataField type); for rules and tests too.
bool data_has_type(const nlohmann::json& value, const std::string& type);

}  // namespace graft::policy_parse
