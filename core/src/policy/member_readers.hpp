// SPDX-License-Identifier: Apache-2.0
// Key readers that store one TOML value into one struct member, so a section's
// reader table is a list of {key, member} pairs rather than hand-written code.
#pragma once

#include "policy/key_reader.hpp"

namespace graft::policy_parse {

template <typename>
struct member_of;
template <typename C, typename V>
struct member_of<V C::*> {
  using owner = C;
};
template <auto Member>
using owner_of = typename member_of<decltype(Member)>::owner;

template <auto Member>
Status read_string(const TomlField& field, owner_of<Member>& into, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  into.*Member = std::move(*value);
  return ok_status();
}

template <auto Member>
Status read_bool(const TomlField& field, owner_of<Member>& into, const FileContext&) {
  auto value = as_bool(field);
  if (!value) return value.error();
  into.*Member = *value;
  return ok_status();
}

// Arrays replace: the later file's whole array wins.
template <auto Member>
Status read_strings(const TomlField& field, owner_of<Member>& into, const FileContext&) {
  auto value = as_string_list(field);
  if (!value) return value.error();
  into.*Member = std::move(*value);
  return ok_status();
}

template <auto Member>
Status read_sourced_strings(const TomlField& field, owner_of<Member>& into, const FileContext&) {
  auto value = as_sourced_list(field);
  if (!value) return value.error();
  into.*Member = std::move(*value);
  return ok_status();
}

}  // namespace graft::policy_parse
