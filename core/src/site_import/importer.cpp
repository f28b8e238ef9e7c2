// SPDX-License-Identifier: Apache-2.0
// Finding an importer in the policy directories and checking its file: an
// importer with a misspelt field must fail here, not silently import less.
#include "site_import/importer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "trust/trusted_file.hpp"
#include "graft/base/did_you_mean.hpp"
#include "policy/toml_field.hpp"

namespace graft::site_import {
namespace {

using policy_parse::TomlField;

constexpr std::array<std::string_view, 5> kImporterFields = {"description", "file", "include", "start",
                                                             "key"};
constexpr std::array<std::string_view, 13> kEntryFields = {
    "about", "case", "equals", "prefix", "strip_prefix", "split", "first",
    "set",   "add",  "remove", "why",    "none",         "unsupported"};

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

template <std::size_t N>
Status check_fields(const TomlField& field, const toml::table& table,
                    const std::array<std::string_view, N>& allowed) {
  std::vector<std::string_view> names(allowed.begin(), allowed.end());
  for (const auto& [key, value] : table) {
    if (std::find(names.begin(), names.end(), key.str()) != names.end()) continue;
    return field.child(key.str(), value).error("unknown field" + did_you_mean(key.str(), names));
  }
  return ok_status();
}

Status check_string_lists(const TomlField& field) {
  auto table = policy_parse::as_table(field);
  if (!table) return table.error();
  for (const auto& [key, value] : **table)
    if (auto list = policy_parse::as_string_list(field.child(key.str(), value)); !list)
      return list.error();
  return ok_status();
}

// One case: its fields, their types, and exactly one outcome.
Status check_case(const TomlField& field, const toml::table& entry) {
  for (std::string_view text : {"prefix", "strip_prefix", "split", "why", "none", "unsupported"})
    if (const auto* node = entry.get(text))
      if (auto value = policy_parse::as_string(field.child(text, *node)); !value) return value.error();
  if (const auto* first = entry.get("first"))
    if (auto value = policy_parse::as_bool(field.child("first", *first)); !value) return value.error();
  if (const auto* set = entry.get("set"))
    if (auto table = policy_parse::as_table(field.child("set", *set)); !table) return table.error();
  for (std::string_view edit : {"add", "remove"})
    if (const auto* node = entry.get(edit))
      if (auto status = check_string_lists(field.child(edit, *node)); !status) return status;
  int outcomes = (entry.contains("none") ? 1 : 0) + (entry.contains("unsupported") ? 1 : 0) +
                 ((entry.contains("set") || entry.contains("add") || entry.contains("remove")) ? 1 : 0);
  if (outcomes != 1)
    return field.error("a case needs exactly one outcome: none, unsupported, or set/add/remove");
  if (entry.contains("equals") && entry.contains("prefix"))
    return field.error("a case matches by equals or by prefix, not both");
  return ok_status();
}

Status check_entry(const TomlField& field, const toml::table& entry) {
  if (auto status = check_fields(field, entry, kEntryFields); !status) return status;
  const auto* cases = entry.get("case");
  if (!cases) return check_case(field, entry);
  const auto* list = cases->as_array();
  if (!list || list->empty()) return field.child("case", *cases).error("expected a non-empty array of tables");
  for (std::size_t i = 0; i < list->size(); ++i) {
    TomlField one = field.child("case", *cases).element(i, (*list)[i]);
    auto table = policy_parse::as_table(one);
    if (!table) return table.error();
    if ((*table)->contains("case") || (*table)->contains("about")) return one.error("cases do not nest");
    if (auto status = check_case(one, **table); !status) return status;
  }
  return ok_status();
}

Result<std::string> optional_string(const TomlField& top, const toml::table& table, std::string_view key) {
  const auto* node = table.get(key);
  if (!node) return std::string();
  return policy_parse::as_string(top.child(key, *node));
}

}  // namespace

std::vector<const toml::table*> cases_of(const toml::table& entry) {
  const auto* list = entry["case"].as_array();
  if (!list) return {&entry};
  std::vector<const toml::table*> cases;
  for (const auto& node : *list) cases.push_back(node.as_table());
  return cases;
}

Result<Importer> read_importer(const std::string& name, const std::string& path) {
  auto text = read_trusted_file(path, 1u << 20);
  if (!text) return text.error();
  toml::table top;
  try {
    top = toml::parse(*text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    return make_error("{}: {}", policy_parse::origin_of(e.source(), path).full(), e.description());
  }
  TomlField root{top, "", &path};
  if (auto status = check_fields(root, top, kImporterFields); !status) return status.error();
  Importer importer{.name = name, .path = path};
  auto description = optional_string(root, top, "description");
  auto file = optional_string(root, top, "file");
  auto include = optional_string(root, top, "include");
  for (auto* field : {&description, &file, &include})
    if (!*field) return field->error();
  if (include->empty()) return policy_parse::error_at(root.origin(), "include", "required: the policy to include");
  importer.description = *description, importer.default_file = *file, importer.include = *include;
  if (const auto* start = top.get("start")) {
    if (auto status = check_string_lists(root.child("start", *start)); !status) return status.error();
    importer.start = *start->as_table();
  }
  const auto* keys = top.get("key");
  if (!keys || !keys->is_table()) return policy_parse::error_at(root.origin(), "key", "required: a table of keys");
  for (const auto& [key, entry] : *keys->as_table()) {
    TomlField field = root.child("key", *keys).child(fmt::format("\"{}\"", key.str()), entry);
    auto table = policy_parse::as_table(field);
    if (!table) return table.error();
    if (auto status = check_entry(field, **table); !status) return status.error();
  }
  importer.keys = *keys->as_table();
  return importer;
}

Result<Importer> find_importer(const std::string& name, const std::vector<std::string>& policy_dirs) {
  if (!valid_name(name))
    return make_error("importer name '{}': use letters, digits, '-' and '_'", name);
  std::vector<std::string> tried;
  for (const auto& dir : policy_dirs) {
    std::error_code ec;
    std::vector<std::filesystem::path> vendors;  // sorted: the same importer wins every time
    for (const auto& vendor : std::filesystem::directory_iterator(dir, ec)) vendors.push_back(vendor.path());
    std::sort(vendors.begin(), vendors.end());
    for (const auto& vendor : vendors) {
      std::string candidate = (vendor / "import" / (name + ".toml")).string();
      if (std::filesystem::is_regular_file(candidate, ec)) return read_importer(name, candidate);
    }
    tried.push_back(dir + "/*/import/" + name + ".toml");
  }
  return make_error("no importer '{}' (looked for {})", name, fmt::join(tried, ", "));
}

}  // namespace graft::site_import
