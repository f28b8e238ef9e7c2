// SPDX-License-Identifier: Apache-2.0
// Typed, positioned access to one node of a parsed policy file. Every value
// read from TOML goes through here, so every error names file:line:col and the
// dotted key path, and every string keeps the position it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "graft/base/error.hpp"
#include "policy/origin.hpp"
#include "policy/policy.hpp"

namespace graft::policy_parse {

Origin origin_of(const toml::source_region& source, const std::string& file);

// "file:line:col: key: message"
Error error_at(const Origin& origin, std::string_view key, std::string_view message);

// "string", "integer", "array", ... as the TOML spec names them.
std::string type_name(toml::node_type type);

// The file being read: its absolute path, and its directory, against which
// relative paths in it (includes, drop-ins, rules, roots) resolve.
struct FileContext {
  std::string path;
  std::string dir;
  // A shipped policy's file (the vendor layer, policy/load.cpp): only such
  // a file declares the host places a policy may take from (policy/places.hpp).
  bool vendor_layer = false;
};

// Absolute paths stay; relative ones are taken from the file's directory.
std::string resolve_path(const FileContext& file, const std::string& path);

// A value as TOML would spell it: "\"32XB\"", "-1", "1979-05-27".
std::string toml_text(const toml::node& node);

// One node, with the key path that leads to it and the file it lives in.
struct TomlField {
  const toml::node& node;
  std::string key;           // dotted key path, e.g. "capability.compute.libraries"
  const std::string* file;   // the file's absolute path, owned by the loader

  Origin origin() const { return origin_of(node.source(), *file); }
  Error error(std::string_view message) const { return error_at(origin(), key, message); }
  Error type_error(std::string_view expected) const;
  TomlField child(std::string_view name, const toml::node& value) const;
  TomlField element(std::size_t index, const toml::node& value) const;
};

Result<const toml::table*> as_table(const TomlField& field);
Result<std::string> as_string(const TomlField& field);
Result<SourcedString> as_sourced(const TomlField& field);
Result<bool> as_bool(const TomlField& field);
Result<std::int64_t> as_integer(const TomlField& field);
Result<std::vector<SourcedString>> as_sourced_list(const TomlField& field);
Result<std::vector<std::string>> as_string_list(const TomlField& field);

}  // namespace graft::policy_parse
