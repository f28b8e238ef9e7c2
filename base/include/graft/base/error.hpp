// SPDX-License-Identifier: Apache-2.0
// Errors as values. An Error carries a message that already names its context
// (file:line:col, key path, rule, container id); the CLI prints it as one line.
// Beside the message it keeps what a caller may branch on, so that no caller
// has to read the words: the errno of the failing system call, the step that
// failed (a mount helper's "open_tree", "move_mount") and a kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace graft {

// The name of a failing step. It is built only from a string literal
// (consteval), so an Error may keep it by view and copy it freely.
class StepName {
 public:
  constexpr StepName() = default;
  template <std::size_t N>
  consteval StepName(const char (&name)[N]) : name_(name, N - 1) {}  // implicit: a literal is a step

  constexpr std::string_view text() const { return name_; }
  constexpr bool empty() const { return name_.empty(); }
  friend constexpr bool operator==(StepName, StepName) = default;

 private:
  std::string_view name_;
};

// Failures a caller tells apart by kind rather than by message. Add one only
// where some caller branches on it.
enum class ErrorKind : std::uint8_t {
  unspecified,
  rules_not_loaded,  // the policy's rule files or modules failed to load
};

struct Error {
  std::string message;
  int code = 0;   // errno of the failing system call; 0 when no call failed
  StepName step{};  // which step failed; empty when the code has no steps
  ErrorKind kind = ErrorKind::unspecified;

  // Prefixes context, keeping the innermost detail last:
  // "container 3f2a: policy.toml:3:1: unknown key 'foo'". Code, step and
  // kind stay: they are the innermost failure's.
  Error context(const std::string& where) const {
    Error outer = *this;
    outer.message = where + ": " + message;
    return outer;
  }
};

template <typename... Args>
Error make_error(fmt::format_string<Args...> format, Args&&... args) {
  return Error{fmt::format(format, std::forward<Args>(args)...)};
}

// A failed system call: "<what>: <strerror(code)>", with `code` (an errno,
// positive) kept beside the message.
template <typename... Args>
Error make_sys_error(int code, fmt::format_string<Args...> format, Args&&... args) {
  std::string message = fmt::format(format, std::forward<Args>(args)...);
  message.append(": ").append(std::strerror(code));
  return Error{.message = std::move(message), .code = code};
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
