// render_policy_toml: the document render_policy_json builds, written as
// TOML. An array entry that carries an "origin" (and maybe a "via") is
// written as its value with those in a comment; a table's own "origin" goes
// in a comment on its header. [data] and [plugins.config.*] are free-form,
// so they are written by toml++ as they are, with no such reading.
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

toml::table toml_table(const ojson& object);

toml::array toml_array(const ojson& array) {
  toml::array out;
  for (const auto& entry : array) {
    if (entry.is_object()) out.push_back(toml_table(entry));
    else if (entry.is_array()) out.push_back(toml_array(entry));
    else if (entry.is_string()) out.push_back(entry.get<std::string>());
    else if (entry.is_boolean()) out.push_back(entry.get<bool>());
    else if (entry.is_number_integer()) out.push_back(entry.get<std::int64_t>());
    else if (entry.is_number_float()) out.push_back(entry.get<double>());
  }
  return out;
}

toml::table toml_table(const ojson& object) {
  toml::table out;
  for (const auto& [key, value] : object.items()) {
    if (value.is_object()) out.insert(key, toml_table(value));
    else if (value.is_array()) out.insert(key, toml_array(value));
    else if (value.is_string()) out.insert(key, value.get<std::string>());
    else if (value.is_boolean()) out.insert(key, value.get<bool>());
    else if (value.is_number_integer()) out.insert(key, value.get<std::int64_t>());
    else if (value.is_number_float()) out.insert(key, value.get<double>());
  }
  return out;
}

// Free-form tables under their full path: toml++ writes the headers.
void write_free_form(std::string& out, const std::vector<std::string>& path, const ojson& object) {
  if (object.empty()) return;
  toml::table root = toml_table(object);
  for (auto key = path.rbegin(); key != path.rend(); ++key) {
    toml::table parent;
    parent.insert(*key, std::move(root));
    root = std::move(parent);
  }
  std::ostringstream text;
  text << toml::toml_formatter(root, kTomlFlags);
  out += "\n" + text.str() + "\n";
}

void write_table(std::string& out, const std::vector<std::string>& path, const ojson& table) {
  if (!path.empty()) {
    out += "\n[" + toml_header(path) + "]";
    if (table.contains("origin")) out += "  # " + table["origin"].get<std::string>();
    out += "\n";
  }
  for (const auto& [key, value] : table.items()) {
    if (key == "origin" || value.is_object()) continue;
    out += toml_key(key) + " = " + (value.is_array() ? array_value(value) : toml_scalar(value)) + "\n";
  }
  for (const auto& [key, value] : table.items()) {
    if (!value.is_object()) continue;
    std::vector<std::string> child = path;
    child.push_back(key);
    if (is_free_form(child))
      write_free_form(out, child, value);
    else
      write_table(out, child, value);
  }
}

}  // namespace

std::string render_policy_toml(const Policy& policy, const std::vector<RuleActivity>& rules) {
  std::string out =
      "# graft policy show: the merged policy as this node runs it. A report, not a policy file:\n"
      "# files in merge order, capability sets with what their pulls bring (\"via\"), the rules\n"
      "# the rule files register in run order, and \"# file:line\" where a value was set.\n";
  write_table(out, {}, render_policy_json(policy, rules));
  return out;
}

std::string toml_quoted(const std::string& text) {
  std::ostringstream out;
  toml::value<std::string> value(text);
  out << toml::toml_formatter(value, kTomlFlags);
  return out.str();
}

}  // namespace graft
