// SPDX-License-Identifier: Apache-2.0
// render_policy_toml: the document render_policy_json builds, written as
// TOML. An array entry that carries an "origin" (and maybe a "via") is
// written as its value with those in a comment; a table's own "origin" goes
// in a comment on its header. Every other key and table a file set gets its
// entry of "origins" (where, and what it overrode) as a comment on its line,
// which is not written as a table itself. [data] and [plugins.config.*] are
// free-form: their keys are written as they are, "origin" included.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>

#include <toml++/toml.h>

#include "render/policy_render.hpp"

namespace graft {
namespace {

using ojson = nlohmann::ordered_json;

bool is_free_form(const std::vector<std::string>& path) {
  return path == std::vector<std::string>{"data"} || path == std::vector<std::string>{"plugins", "config"};
}

// Strings as policy files write them: "double-quoted", never 'literal'.
constexpr toml::format_flags kTomlFlags =
    toml::toml_formatter::default_flags & ~toml::format_flags::allow_literal_strings;

std::string toml_key(const std::string& key) {
  bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-';
  });
  return bare ? key : toml_quoted(key);
}

std::string toml_header(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& key : path) out += (out.empty() ? "" : ".") + toml_key(key);
  return out;
}

std::string toml_scalar(const ojson& value) {
  if (value.is_string()) return toml_quoted(value.get<std::string>());
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
    return toml_quoted(value.dump());  // beyond TOML's integers
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  std::ostringstream out;
  out << toml::value<double>(value.get<double>());
  return out.str();
}

bool has_origin(const ojson& value) { return value.is_object() && value.contains("origin"); }

std::string inline_value(const ojson& value);

// An object as an inline table, leaving out what goes in the comment.
std::string inline_table(const ojson& object) {
  std::string out;
  for (const auto& [key, value] : object.items()) {
    if (key == "origin" || key == "via") continue;
    out += (out.empty() ? "" : ", ") + toml_key(key) + " = " + inline_value(value);
  }
  return out.empty() ? "{}" : "{ " + out + " }";
}

std::string inline_value(const ojson& value) {
  if (value.is_object()) return inline_table(value);
  if (!value.is_array()) return toml_scalar(value);
  std::string out;
  for (const auto& entry : value) out += (out.empty() ? "" : ", ") + inline_value(entry);
  return "[" + out + "]";
}

std::string entry_comment(const ojson& entry) {
  std::string comment = entry["origin"].get<std::string>();
  if (entry.contains("via")) comment += " (via " + entry["via"].get<std::string>() + ")";
  return comment;
}

// One entry a line when entries carry origins, else one line.
std::string array_value(const ojson& array) {
  if (std::none_of(array.begin(), array.end(), has_origin)) return inline_value(array);
  std::string out = "[\n";
  for (const auto& entry : array) {
    if (!has_origin(entry)) {
      out += "  " + inline_value(entry) + ",\n";
      continue;
    }
    std::string value = entry.contains("value") ? inline_value(entry["value"]) : inline_table(entry);
    out += "  " + value + ",  # " + entry_comment(entry) + "\n";
  }
  return out + "]";
}

// A free-form array as toml++ writes it: no entry is read for an origin.
std::string free_form_array(const ojson& array);

std::string free_form_value(const ojson& value) {
  if (value.is_array()) return free_form_array(value);
  if (!value.is_object()) return toml_scalar(value);
  std::string out;
  for (const auto& [key, entry] : value.items())
    out += (out.empty() ? "" : ", ") + toml_key(key) + " = " + free_form_value(entry);
  return out.empty() ? "{}" : "{ " + out + " }";
}

std::string free_form_array(const ojson& array) {
  std::string out;
  for (const auto& entry : array) out += (out.empty() ? "" : ", ") + free_form_value(entry);
  return "[" + out + "]";
}

// How the tables of the document are written: with the "origins" entries.
struct TomlWriter {
  const ojson& origins;
  std::string& out;

  std::string comment(const std::string& key) const {
    auto found = origins.find(key);
    if (found == origins.end()) return "";
    std::string text = (*found)["origin"].get<std::string>();
    for (const char* earlier : {"overrode", "merged_over"}) {
      if (!found->contains(earlier)) continue;
      const ojson& entry = (*found)[earlier];
      text += entry.contains("value") ? ", over " + entry["value"].get<std::string>() + " from " : ", merged over ";
      text += entry["origin"].get<std::string>();
    }
    return "  # " + text;
  }

  void header(const std::vector<std::string>& path, const ojson& table, bool free_form) {
    out += "\n[" + toml_header(path) + "]";
    if (!free_form && table.contains("origin") && table["origin"].is_string())
      out += "  # " + table["origin"].get<std::string>();
    else
      out += comment(toml_dotted(path));
    out += "\n";
  }

  void key_line(const std::vector<std::string>& path, const std::string& key, const ojson& value, bool free_form) {
    std::string text = free_form ? (value.is_array() ? free_form_array(value) : toml_scalar(value))
                                 : (value.is_array() ? array_value(value) : toml_scalar(value));
    std::string note = path.empty() ? "" : comment(toml_dotted(path) + "." + key);
    auto newline = text.find('\n');
    if (newline == std::string::npos) text += note;
    else text.insert(newline, note);  // on the line of the array's "["
    out += toml_key(key) + " = " + text + "\n";
  }

  void table(const std::vector<std::string>& path, const ojson& object, bool free_form) {
    if (!path.empty()) header(path, object, free_form);
    for (const auto& [key, value] : object.items()) {
      if ((!free_form && key == "origin") || value.is_object()) continue;
      if (path.empty() && key == "origins") continue;
      key_line(path, key, value, free_form);
    }
    for (const auto& [key, value] : object.items()) {
      if (!value.is_object() || (path.empty() && key == "origins")) continue;
      std::vector<std::string> child = path;
      child.push_back(key);
      bool child_free = free_form || is_free_form(child);
      if (child_free && !free_form && value.empty()) continue;
      table(child, value, child_free);
    }
  }

  static std::string toml_dotted(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& step : path) out += (out.empty() ? "" : ".") + step;
    return out;
  }
};

}  // namespace

std::string render_policy_toml(const Policy& policy, const std::vector<RuleActivity>& rules) {
  std::string out =
      "# graft policy show: the merged policy as this node runs it. A report, not a policy file:\n"
      "# files in merge order, capability sets with what their pulls bring (\"via\"), the rules\n"
      "# the rule files register in run order, and \"# file:line\" where a value was set.\n";
  ojson document = render_policy_json(policy, rules);
  TomlWriter{document["origins"], out}.table({}, document, false);
  return out;
}

std::string toml_quoted(const std::string& text) {
  std::ostringstream out;
  toml::value<std::string> value(text);
  out << toml::toml_formatter(value, kTomlFlags);
  return out.str();
}

}  // namespace graft
