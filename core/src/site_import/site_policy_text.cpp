// SPDX-License-Identifier: Apache-2.0
// Rendering an import as a TOML site policy with comments. Values from the
// foreign file appear in comments only as TOML spells them (one line, quotes
// and control characters escaped), so no value can end a comment; their keys
// likewise (import_config.cpp spells each part with toml_key).
#include "site_import/site_policy_text.hpp"

#include <map>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

namespace graft::site_import {
namespace {

std::string quoted_toml(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += {'\\', static_cast<char>(c)};
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\u{:04X}", c);
    else
      out += static_cast<char>(c);
  }
  return out + "\"";
}

// `text` as comment lines of at most ~`width` columns after `lead`.
std::string comment(std::string_view lead, std::string_view text, std::size_t width = 96) {
  std::string out, line(lead);
  std::istringstream words{std::string(text)};
  std::string word;
  bool empty = true;
  while (words >> word) {
    if (!empty && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(lead), empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  return empty ? out : out + line + "\n";
}

const KeyImport* find_key(const SiteImport& result, const std::string& key) {
  for (const auto& one : result.keys)
    if (one.key == key) return &one;
  return nullptr;
}

// The comment naming the keys a setting came from, and why.
std::string sources_comment(const SiteImport& result, const std::string& name) {
  std::string out;
  auto sources = result.sources.find(name);
  for (const auto& key : sources == result.sources.end() ? std::vector<std::string>{} : sources->second) {
    const KeyImport* from = find_key(result, key);
    if (!from) continue;
    out += fmt::format("# from {} = {}\n", from->key, from->value);
    if (!from->reason.empty()) out += comment("#   ", from->reason);
  }
  return out;
}

// Each table's settings; a setting from the same keys as the one before it
// (two settings of one ldconfig key) does not repeat their comment.
std::string settings_text(const SiteImport& result) {
  struct Table {
    std::string text, last_comment;
  };
  std::map<std::string, Table> tables;  // "" is the top level
  for (const auto& [key, value] : result.settings) {
    std::string name(key.str());
    auto dot = name.rfind('.');
    Table& table = tables[dot == std::string::npos ? "" : name.substr(0, dot)];
    std::string why = sources_comment(result, name);
    if (why != table.last_comment) table.text += why;
    table.last_comment = why;
    table.text += fmt::format("{} = {}\n", toml_key(dot == std::string::npos ? name : name.substr(dot + 1)),
                              one_line_toml(value));
  }
  std::string out;
  for (const auto& [header, table] : tables)
    out += header.empty() ? table.text : fmt::format("\n[{}]\n{}", header, table.text);
  return out;
}

std::string listed_keys(const SiteImport& result, Outcome outcome, std::string_view heading) {
  std::string out;
  for (const auto& key : result.keys) {
    if (key.outcome != outcome) continue;
    out += fmt::format("#   {} = {}\n", key.key, key.value);
    if (!key.reason.empty()) out += comment("#       ", key.reason);
  }
  return out.empty() ? out : fmt::format("\n# {}\n{}", heading, out);
}

}  // namespace

std::string toml_key(std::string_view key) {
  bool bare = !key.empty() && key.find_first_not_of(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == std::string_view::npos;
  return bare ? std::string(key) : quoted_toml(key);
}

std::string one_line_toml(const toml::node& value) {
  if (const auto* text = value.as_string()) return quoted_toml(text->get());
  std::string out;
  if (const auto* list = value.as_array()) {
    for (const auto& item : *list) out += (out.empty() ? "" : ", ") + one_line_toml(item);
    return "[" + out + "]";
  }
  if (const auto* table = value.as_table()) {
    for (const auto& [key, item] : *table)
      out += (out.empty() ? "" : ", ") + toml_key(key.str()) + " = " + one_line_toml(item);
    return "{ " + out + " }";
  }
  std::ostringstream scalar;  // numbers, booleans, dates: one token
  scalar << toml::toml_formatter(value, toml::format_flags::none);
  return scalar.str();
}

std::string site_policy_text(const SiteImport& result, const ImportSource& source) {
  std::string out = comment(
      "# ", fmt::format("Site policy imported from {} by `graft policy import {}` ({}). Each setting names "
                        "the key it came from. The keys that need no setting, that graft cannot express, "
                        "and that the importer does not know are listed at the end: review them.",
                        quoted_toml(source.file), source.importer, source.description));
  out += "# Check the file before use: graft --policy FILE policy check\n\n";
  out += fmt::format("include = [{}]\n", quoted_toml(result.include));
  out += settings_text(result);
  out += listed_keys(result, Outcome::unchanged, "Kept without a setting (graft already behaves so):");
  out += listed_keys(result, Outcome::inexpressible, "NOT EXPRESSIBLE in graft (review each):");
  out += listed_keys(result, Outcome::unknown, "UNKNOWN to the importer (not applied; review each):");
  return out;
}

std::string import_summary(const SiteImport& result) {
  return fmt::format("{} keys kept, {} not expressible, {} unknown to the importer",
                     result.count(Outcome::set) + result.count(Outcome::unchanged),
                     result.count(Outcome::inexpressible), result.count(Outcome::unknown));
}

}  // namespace graft::site_import
