// SPDX-License-Identifier: Apache-2.0
// note_origins: one walk over a file's tables, keyed as TomlField::child names them.
#include "policy/key_origins.hpp"

#include <algorithm>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "policy/toml_field.hpp"

namespace graft::policy_parse {
namespace {

constexpr std::string_view kOriginDirectives[] = {"include", "drop_ins"};
constexpr std::string_view kAccumulatingKeys[] = {"rules", "rule_modules"};
constexpr std::string_view kSecuritySections[] = {"requests", "defaults", "limits", "plugins", "runtime", "exclusive", "audit"};

bool origin_name_in(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A value as a policy file would write it inline: ["a", "b"], 4, true.
// Written by hand, not by toml++'s formatter: the walk runs on every load
// (every container start), over every value of every file.
void append_value(std::string& out, const toml::node& node);

void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_value(std::string& out, const toml::node& node) {
  if (const auto* text = node.as_string()) {
    append_quoted(out, text->get());
  } else if (const auto* number = node.as_integer()) {
    out += std::to_string(number->get());
  } else if (const auto* flag = node.as_boolean()) {
    out += flag->get() ? "true" : "false";
  } else if (const auto* array = node.as_array()) {
    out += '[';
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i > 0) out += ", ";
      append_value(out, (*array)[i]);
    }
    out += ']';
  } else if (const auto* table = node.as_table()) {
    std::string entries;
    for (const auto& [key, value] : *table) {
      entries += entries.empty() ? "" : ", ";
      entries.append(key.str()).append(" = ");
      append_value(entries, value);
    }
    out += entries.empty() ? "{}" : "{ " + entries + " }";
  } else {
    out += toml_text(node);  // floats, dates and times
  }
}

struct OriginWalk {
  const std::string& file;
  std::map<std::string, KeyOrigin>& origins;
  std::vector<std::string> replaced;

  void note(const std::string& key, const toml::node& node, bool replaces) {
    KeyOrigin entry{origin_of(node.source(), file), {}, {}, {}};
    if (!node.is_table()) append_value(entry.value, node);
    auto [it, created] = origins.try_emplace(key, entry);
    if (created) return;
    if (replaces && !entry.is_table() && it->second.origin.file != file) {
      entry.replaced = it->second.origin;
      entry.replaced_value = it->second.value;
      replaced.push_back(key);
    } else if (entry.is_table() && it->second.origin.file != file) {
      entry.replaced = it->second.origin;  // a table merges: where it was set before
    }
    it->second = std::move(entry);
  }

  void walk(const std::string& prefix, const toml::table& table, bool replaces) {
    for (const auto& [name, node] : table) {
      std::string key = prefix.empty() ? std::string(name.str()) : prefix + "." + std::string(name.str());
      note(key, node, replaces);
      if (const auto* child = node.as_table()) walk(key, *child, replaces);
    }
  }
};

}  // namespace

std::vector<std::string> note_origins(const toml::table& root, const std::string& file,
                                      std::map<std::string, KeyOrigin>& origins) {
  OriginWalk walk{file, origins, {}};
  for (const auto& [name, node] : root) {
    if (origin_name_in(name.str(), kOriginDirectives)) continue;
    std::string key(name.str());
    bool replaces = !origin_name_in(key, kAccumulatingKeys);
    walk.note(key, node, replaces);
    if (const auto* table = node.as_table()) walk.walk(key, *table, replaces);
  }
  return std::move(walk.replaced);
}

bool is_security_relevant(const std::string& key) {
  return origin_name_in(std::string_view(key).substr(0, key.find('.')), kSecuritySections);
}

}  // namespace graft::policy_parse
