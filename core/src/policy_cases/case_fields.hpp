// SPDX-License-Identifier: Apache-2.0
// Small readers the case file's sections share, on top of the policy
// loader's (policy/member_readers.hpp): tables and arrays read whole, every
// mistake collected rather than the first (a case file is fixed in one go),
// and storing a read value.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "policy/member_readers.hpp"
#include "policy/key_reader.hpp"

namespace graft::policy_parse {

// The failures of a read, one line each.
class Failures {
 public:
  void add(const Status& status) {
    if (!status) lines_ += (lines_.empty() ? "" : "\n") + status.error().message;
  }
  Status status() const { return lines_.empty() ? ok_status() : Status(Error{lines_}); }

 private:
  std::string lines_;
};

// Like read_table, but every key is read: each unknown key and each value
// that cannot be read is reported, not only the first.
template <typename T>
Status read_every_key(const TomlField& field, std::span<const KeyReader<T>> readers, T& into) {
  auto table = as_table(field);
  if (!table) return table.error();
  Failures failures;
  for (auto&& [key, node] : **table) {
    auto reader = std::find_if(readers.begin(), readers.end(),
                               [&](const KeyReader<T>& candidate) { return candidate.key == key.str(); });
    if (reader != readers.end()) {
      failures.add(reader->read(field.child(key.str(), node), into, FileContext{}));
      continue;
    }
    std::vector<std::string_view> known;
    for (const auto& candidate : readers) known.push_back(candidate.key);
    failures.add(unknown_key(field, key, known));
  }
  return failures.status();
}

template <typename T, std::size_t N>
Status read_every_key(const TomlField& field, const KeyReader<T> (&readers)[N], T& into) {
  return read_every_key(field, std::span<const KeyReader<T>>(readers), into);
}

// Calls `read_element(TomlField)` for each element of the array at `field`,
// every element, collecting the failures.
template <typename ReadElement>
Status read_each(const TomlField& field, ReadElement&& read_element) {
  const auto* array = field.node.as_array();
  if (!array) return field.type_error("an array");
  Failures failures;
  for (std::size_t i = 0; i < array->size(); ++i) failures.add(read_element(field.element(i, (*array)[i])));
  return failures.status();
}

template <typename T>
Status store(Result<T> value, T& into) {
  if (!value) return value.error();
  into = std::move(*value);
  return ok_status();
}

template <typename T>
Status store(Result<T> value, std::optional<T>& into) {
  if (!value) return value.error();
  into = std::move(*value);
  return ok_status();
}

}  // namespace graft::policy_parse
