// Small readers the case file's sections share, on top of the policy
// loader's (policy/member_readers.hpp): arrays element by element, and
// storing a read value.
#pragma once

#include <optional>
#include <utility>

#include "policy/member_readers.hpp"

namespace graft::policy_parse {

// Calls `read_element(TomlField)` for each element of the array at `field`.
template <typename ReadElement>
Status read_each(const TomlField& field, ReadElement&& read_element) {
  const auto* array = field.node.as_array();
  if (!array) return field.type_error("an array");
  for (std::size_t i = 0; i < array->size(); ++i)
    if (Status status = read_element(field.element(i, (*array)[i])); !status) return status;
  return ok_status();
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
