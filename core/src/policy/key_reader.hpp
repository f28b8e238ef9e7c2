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

// Reads every key of the table at `field` with the matching reader; a key no
// reader accepts is an error. Keys absent from the table leave `into` as is,
// which is what makes later files override only what they mention.
template <typename T>
Status read_table(const TomlField& field, std::span<const KeyReader<T>> readers, T& into,
                  const FileContext& file) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    const KeyReader<T>* reader = nullptr;
    for (const auto& candidate : readers) {
      if (candidate.key == key.str()) reader = &candidate;
    }
    if (!reader) {
      std::vector<std::string_view> known;
      for (const auto& candidate : readers) known.push_back(candidate.key);
      return unknown_key(field, key, known);
    }
    if (auto status = reader->read(field.child(key.str(), node), into, file); !status) {
      return status;
    }
  }
  return ok_status();
}

template <typename T, std::size_t N>
Status read_table(const TomlField& field, const KeyReader<T> (&readers)[N], T& into,
                  const FileContext& file) {
  return read_table(field, std::span<const KeyReader<T>>(readers), into, file);
}

}  // namespace graft::policy_parse
