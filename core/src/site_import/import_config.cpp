// SPDX-License-Identifier: Apache-2.0
// Each leaf key of the foreign file goes through its entry's cases, the first
// that matches deciding; graft settings accumulate in one flat table.
#include "site_import/import_config.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "site_import/site_policy_text.hpp"

namespace graft::site_import {
namespace {

struct Leaf {
  std::string key;
  const toml::node* node;
};

// No configuration file nests its keys deeper (config.toml: 4 levels).
constexpr std::size_t kMaxKeyDepth = 16;

// Every leaf key, depth first in table order, each part of its dotted name
// spelt by toml_key (a part holding a newline or a dot stays one quoted
// part). A loop over an explicit stack, not recursion, and bounded: how
// deep a key goes is the foreign file's choice. Arrays are values here
// (config.toml has no arrays of tables).
Result<std::vector<Leaf>> collect_leaves(const toml::table& config) {
  struct Level {
    toml::table::const_iterator next, end;
    std::string prefix;
  };
  std::vector<Level> stack{{config.begin(), config.end(), ""}};
  std::vector<Leaf> leaves;
  while (!stack.empty()) {
    if (stack.back().next == stack.back().end) {
      stack.pop_back();
      continue;
    }
    auto entry = stack.back().next++;
    const auto& [key, node] = *entry;
    const std::string& prefix = stack.back().prefix;
    std::string path = (prefix.empty() ? "" : prefix + ".") + toml_key(key.str());
    const auto* child = node.as_table();
    if (!child) {
      leaves.push_back({std::move(path), &node});
      continue;
    }
    if (stack.size() >= kMaxKeyDepth) {
      const auto& where = node.source();
      return make_error("{}:{}: {}: keys nested more than {} tables deep; no configuration file has them",
                        where.path ? *where.path : std::string("config"), where.begin.line, path, kMaxKeyDepth);
    }
    stack.push_back({child->begin(), child->end(), std::move(path)});
  }
  return leaves;
}

// Values compare as they print: one line of TOML (so 1 and 1.0 differ).
bool case_matches(const toml::table& one, const toml::node& value) {
  if (const auto* equals = one.get("equals")) return one_line_toml(*equals) == one_line_toml(value);
  if (auto prefix = one["prefix"].value<std::string>())
    return value.is_string() && value.as_string()->get().starts_with(*prefix);
  return true;
}

std::string trimmed(std::string_view text) {
  auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// The value as the case reshapes it, kept in `scratch` under "value".
const toml::node& reshaped(const toml::table& one, const toml::node& value, toml::table& scratch) {
  if (const auto* list = value.as_array(); list && !list->empty() && one["first"].value_or(false))
    return (*list)[0];
  auto text = value.value<std::string>();
  if (!value.is_string()) return value;
  if (auto strip = one["strip_prefix"].value<std::string>(); strip && text->starts_with(*strip))
    text = text->substr(strip->size());
  if (auto separator = one["split"].value<std::string>(); separator && !separator->empty()) {
    toml::array parts;
    std::string_view rest = *text;
    while (!rest.empty()) {
      auto end = rest.find(*separator);
      if (auto part = trimmed(rest.substr(0, end)); !part.empty()) parts.push_back(part);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + separator->size());
    }
    scratch.insert_or_assign("value", std::move(parts));
  } else {
    scratch.insert_or_assign("value", *text);
  }
  return *scratch.get("value");
}

class SettingsBuilder {
 public:
  SettingsBuilder(const Importer& importer, SiteImport& out) : importer_(importer), out_(out) {}

  Status apply(const toml::table& one, const toml::node& value, KeyImport& key) {
    if (const auto* set = one["set"].as_table())
      for (const auto& [name, literal] : *set)
        if (auto status = assign(std::string(name.str()), resolved(literal, value), key); !status)
          return status;
    for (bool adding : {true, false})
      if (const auto* edits = one[adding ? "add" : "remove"].as_table())
        for (const auto& [name, names] : *edits) edit(std::string(name.str()), *names.as_array(), adding, key);
    return ok_status();
  }

 private:
  // "{value}" alone is the value with its type; inside a longer string, its text.
  const toml::node& resolved(const toml::node& literal, const toml::node& value) {
    auto text = literal.value<std::string>();
    if (!literal.is_string() || text->find("{value}") == std::string::npos) return literal;
    if (*text == "{value}") return value;
    std::string replaced = *text;
    std::string with = value.value<std::string>().value_or(one_line_toml(value));
    for (auto at = replaced.find("{value}"); at != std::string::npos; at = replaced.find("{value}", at + with.size()))
      replaced.replace(at, 7, with);
    scratch_.insert_or_assign("text", replaced);
    return *scratch_.get("text");
  }

  Status assign(const std::string& name, const toml::node& value, KeyImport& key) {
    if (const auto* earlier = out_.settings.get(name); earlier && one_line_toml(*earlier) != one_line_toml(value))
      return make_error("{}: {} sets {} to {}, but {} already set it to {}", importer_.path, key.key, name,
                        one_line_toml(value), fmt::join(out_.sources[name], ", "), one_line_toml(*earlier));
    value.visit([&](const auto& typed) { out_.settings.insert_or_assign(name, typed); });
    record(name, key);
    return ok_status();
  }

  void edit(const std::string& name, const toml::array& names, bool adding, KeyImport& key) {
    const toml::node* current = out_.settings.get(name);
    if (!current) current = importer_.start.get(name);
    toml::array list = current && current->is_array() ? *current->as_array() : toml::array();
    for (const auto& item : names) {
      auto text = item.value<std::string>();
      auto found = std::find_if(list.begin(), list.end(), [&](const toml::node& n) { return n.value<std::string>() == text; });
      if (adding && found == list.end()) list.push_back(*text);
      if (!adding && found != list.end()) list.erase(found);
    }
    out_.settings.insert_or_assign(name, std::move(list));
    record(name, key);
  }

  void record(const std::string& name, KeyImport& key) {
    auto& from = out_.sources[name];
    if (std::find(from.begin(), from.end(), key.key) == from.end()) from.push_back(key.key);
    if (std::find(key.settings.begin(), key.settings.end(), name) == key.settings.end())
      key.settings.push_back(name);
  }

  const Importer& importer_;
  SiteImport& out_;
  toml::table scratch_;
};

}  // namespace

std::size_t SiteImport::count(Outcome outcome) const {
  return static_cast<std::size_t>(
      std::count_if(keys.begin(), keys.end(), [&](const KeyImport& key) { return key.outcome == outcome; }));
}

Result<SiteImport> import_config(const Importer& importer, const toml::table& config) {
  SiteImport out{.include = importer.include};
  auto leaves = collect_leaves(config);
  if (!leaves) return leaves.error();
  SettingsBuilder builder(importer, out);
  for (const Leaf& leaf : *leaves) {
    KeyImport key{.key = leaf.key, .value = one_line_toml(*leaf.node), .line = leaf.node->source().begin.line};
    const auto* entry = importer.keys[leaf.key].as_table();
    key.reason = entry ? "no case of the importer matches this value" : "";
    key.outcome = entry ? Outcome::inexpressible : Outcome::unknown;
    for (const toml::table* one : entry ? cases_of(*entry) : std::vector<const toml::table*>{}) {
      if (!case_matches(*one, *leaf.node)) continue;
      toml::table scratch;
      const toml::node& value = reshaped(*one, *leaf.node, scratch);
      if (auto none = (*one)["none"].value<std::string>()) {
        key.outcome = Outcome::unchanged, key.reason = *none;
      } else if (auto unsupported = (*one)["unsupported"].value<std::string>()) {
        key.outcome = Outcome::inexpressible, key.reason = *unsupported;
      } else {
        key.outcome = Outcome::set, key.reason = (*one)["why"].value_or(std::string());
        if (auto status = builder.apply(*one, value, key); !status) return status.error();
      }
      break;
    }
    out.keys.push_back(std::move(key));
  }
  std::stable_sort(out.keys.begin(), out.keys.end(),
                   [](const KeyImport& a, const KeyImport& b) { return a.line < b.line; });
  return out;
}

}  // namespace graft::site_import
