// SPDX-License-Identifier: Apache-2.0
// Errors as values. An Error carries a message that already names its context
// (file:line:col, key path, rule, container id); the CLI prints it as one line.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace graft {

struct Error {
  std::string message;

  // Prefixes context, keeping the innermost detail last:
  // "container 3f2a: policy.toml:3:1: unknown key 'foo'".
  Error context(const std::string& where) const { return Error{where + ": " + message}; }
};

template <typename... Args>
Error make_error(fmt::format_string<Args...> format, Args&&... args) {
  return Error{fmt::format(format, std::forward<Args>(args)...)};
}

// A value or an Error. Deliberately small: ok(), value(), error(), and
// implicit construction from either side.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }

  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// For operations that produce nothing but may fail.
struct Done {};
using Status = Result<Done>;
inline Status ok_status() { return Done{}; }

}  // namespace graft
