// SPDX-License-Identifier: Apache-2.0
// Key checking for policy tables: every table is read through a list of the
// keys it accepts, so an unknown key (a typo) is an error that suggests the
// closest accepted key instead of silently doing nothing.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/did_you_mean.hpp"
#include "policy/toml_field.hpp"

namespace graft::policy_parse {

using graft::did_you_mean;  // graft/base/did_you_mean.hpp

// "file:line:col: table.key: unknown key; did you mean '...'?" at the key itself.
Error unknown_key(const TomlField& table, const toml::key& key,
                  std::span<const std::string_view> known);

// How one key of a table is read into `T`.
template <typename T>
struct KeyReader {
  std::string_view key;
  Status (*read)(const TomlField& value, T& into, const FileContext& file);
};

template <typename T>
const KeyReader<T>* reader_for(std::span<const KeyReader<T>> readers, std::string_view key) {
  for (const auto& reader : readers)
    if (reader.key == key) return &reader;
  return nullptr;
}

// Reads every key of the table at `field` with the matching reader of
// `first` (into `a`) or, failing that, of `second` (into `b`): one table
// holding two structs' keys, as [vendor.NAME] holds a GPU source's beside
// its own. A key no reader accepts is an error. Keys absent from the table
// leave both as they are, which is what makes later files override only
// what they mention.
template <typename A, typename B>
Status read_table(const TomlField& field, std::span<const KeyReader<A>> first, A& a,
                  std::span<const KeyReader<B>> second, B& b, const FileContext& file) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    TomlField value = field.child(key.str(), node);
    Status status = ok_status();
    if (const auto* reader = reader_for(first, key.str())) {
      status = reader->read(value, a, file);
    } else if (const auto* other = reader_for(second, key.str())) {
      status = other->read(value, b, file);
    } else {
      std::vector<std::string_view> known;
      for (const auto& candidate : first) known.push_back(candidate.key);
      for (const auto& candidate : second) known.push_back(candidate.key);
      return unknown_key(field, key, known);
    }
    if (!status) return status;
  }
  return ok_status();
}

// Reads every key of the table at `field` with the matching reader.
template <typename T>
Status read_table(const TomlField& field, std::span<const KeyReader<T>> readers, T& into,
                  const FileContext& file) {
  return read_table(field, readers, into, std::span<const KeyReader<T>>{}, into, file);
}

template <typename T, std::size_t N>
Status read_table(const TomlField& field, const KeyReader<T> (&readers)[N], T& into,
                  const FileContext& file) {
  return read_table(field, std::span<const KeyReader<T>>(readers), into, file);
}

}  // namespace graft::policy_parse
