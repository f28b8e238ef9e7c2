// SPDX-License-Identifier: Apache-2.0
// read_data_schema and check_data: the schema's entries and the check of
// [data] against them, each error at the key's file:line.
#include "policy/data_schema.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "policy/member_readers.hpp"
#include "policy/key_reader.hpp"

namespace graft::policy_parse {
namespace {

constexpr std::string_view kDataTypes[] = {
    "string",           "integer",           "float",           "boolean",           "table",
    "array",            "array of strings",  "array of integers", "array of floats", "array of booleans",
    "array of tables"};

Status read_type_name(const TomlField& field, std::string& into) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (std::find(std::begin(kDataTypes), std::end(kDataTypes), *value) == std::end(kDataTypes))
    return field.error(fmt::format("unknown type '{}' (string, integer, float, boolean, table, array or "
                                   "\"array of <type>s\"){}",
                                   *value, did_you_mean(*value, kDataTypes)));
  into = std::move(*value);
  return ok_status();
}

constexpr KeyReader<DataField> kDataFieldReaders[] = {
    {"type", [](const TomlField& f, DataField& d, const FileContext&) { return read_type_name(f, d.type); }},
    {"values", [](const TomlField& f, DataField& d, const FileContext&) { return read_type_name(f, d.values); }},
    {"required", read_bool<&DataField::required>},
    {"description", read_string<&DataField::description>},
};

Origin data_origin(const Policy& policy, const std::string& key) {
  auto found = policy.key_origins.find(key);
  return found == policy.key_origins.end() ? Origin{} : found->second.origin;
}

std::string json_type_name(const nlohmann::json& value) {
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "boolean";
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return "float";
  if (value.is_object()) return "table";
  if (value.is_array()) return "array";
  return "nothing";
}

Status check_value(const Policy& policy, const std::string& key, const nlohmann::json& value,
                   const std::string& type) {
  if (data_has_type(value, type)) return ok_status();
  std::string got = json_type_name(value);
  return error_at(data_origin(policy, key), key,
                  fmt::format("[data_schema] declares {}, got {}{}", type, got,
                              got == "array" ? " with an element of another type" : ""));
}

Status check_field(const Policy& policy, const std::string& name, const DataField& field) {
  std::string key = "data." + name;
  auto found = policy.data.find(name);
  if (found == policy.data.end()) {
    if (!field.required) return ok_status();
    return error_at(field.origin, "data_schema." + name, fmt::format("required, but no file sets {}", key));
  }
  if (auto status = check_value(policy, key, *found, field.type); !status) return status;
  if (field.type != "table" || field.values.empty()) return ok_status();
  for (const auto& [entry, value] : found->items())
    if (auto status = check_value(policy, key + "." + entry, value, field.values); !status) return status;
  return ok_status();
}

}  // namespace

bool data_has_type(const nlohmann::json& value, const std::string& type) {
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "float") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "table") return value.is_object();
  if (type == "array") return value.is_array();
  if (!type.starts_with("array of ") || !value.is_array()) return false;
  std::string element = type.substr(9, type.size() - 10);  // "array of strings" -> "string"
  return std::all_of(value.begin(), value.end(), [&](const nlohmann::json& item) { return data_has_type(item, element); });
}

Status read_data_schema(const TomlField& field, Policy& policy, const FileContext& file) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [name, node] : **table) {
    TomlField entry = field.child(name.str(), node);
    if (!node.is_table()) return entry.type_error("a table (type, values, required, description)");
    auto [it, created] = policy.data_schema.fields.try_emplace(std::string(name.str()));
    if (created) it->second.origin = entry.origin();
    if (auto status = read_table(entry, kDataFieldReaders, it->second, file); !status) return status;
    if (it->second.type.empty()) return entry.error("missing key 'type'");
    if (!it->second.values.empty() && it->second.type != "table")
      return entry.error("'values' is for type = \"table\" (a map whose every value has that type)");
  }
  return ok_status();
}

Status check_data(const Policy& policy, const std::function<bool(const std::string& file)>& in_vendor_layer) {
  const DataSchema& schema = policy.data_schema;
  if (!schema.declared()) return ok_status();
  std::vector<std::string_view> declared;
  for (const auto& [name, field] : schema.fields) declared.push_back(name);
  for (const auto& [name, value] : policy.data.items()) {
    if (schema.fields.contains(name)) continue;
    Origin origin = data_origin(policy, "data." + name);
    bool vendor = in_vendor_layer(origin.file);
    if (vendor ? !schema.declared_by_vendor : !schema.declared_by_site) continue;
    std::string hint = did_you_mean(name, declared);
    return error_at(origin, "data." + name,
                    "not declared in [data_schema]" +
                        (hint.empty() ? fmt::format(" (declare it as [data_schema.{}])", name) : hint));
  }
  for (const auto& [name, field] : schema.fields)
    if (auto status = check_field(policy, name, field); !status) return status;
  return ok_status();
}

}  // namespace graft::policy_parse
