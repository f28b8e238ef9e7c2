// SPDX-License-Identifier: Apache-2.0
#include "audit/time_bound.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <ctime>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace graft {
namespace {

// Reads exactly `digits` decimal digits at `at`, advancing it.
bool read_digits(std::string_view text, std::size_t& at, std::size_t digits, int& out) {
  if (at + digits > text.size()) return false;
  auto [end, error] = std::from_chars(text.data() + at, text.data() + at + digits, out);
  if (error != std::errc() || end != text.data() + at + digits) return false;
  at += digits;
  return true;
}

bool read_char(std::string_view text, std::size_t& at, std::string_view allowed) {
  if (at >= text.size() || allowed.find(text[at]) == std::string_view::npos) return false;
  ++at;
  return true;
}

// Seconds east of UTC for "Z" or "+HH:MM"/"-HH:MM" at `at`, which must end the text.
bool read_offset(std::string_view text, std::size_t at, int& offset) {
  if (read_char(text, at, "Zz")) {
    offset = 0;
    return at == text.size();
  }
  bool negative = at < text.size() && text[at] == '-';
  int hours = 0, minutes = 0;
  if (!read_char(text, at, "+-") || !read_digits(text, at, 2, hours) || !read_char(text, at, ":") ||
      !read_digits(text, at, 2, minutes) || at != text.size() || hours > 23 || minutes > 59)
    return false;
  offset = (negative ? -1 : 1) * (hours * 3600 + minutes * 60);
  return true;
}

std::optional<double> parse_rfc3339(std::string_view text) {
  std::tm date{};
  std::size_t at = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, at, 4, year) || !read_char(text, at, "-") || !read_digits(text, at, 2, month) ||
      !read_char(text, at, "-") || !read_digits(text, at, 2, day) || !read_char(text, at, "Tt ") ||
      !read_digits(text, at, 2, hour) || !read_char(text, at, ":") || !read_digits(text, at, 2, minute) ||
      !read_char(text, at, ":") || !read_digits(text, at, 2, second))
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return std::nullopt;
  double fraction = 0;
  if (at < text.size() && text[at] == '.') {
    std::size_t start = ++at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at == start) return std::nullopt;
    fraction = std::stod("0." + std::string(text.substr(start, at - start)));
  }
  int offset = 0;
  if (!read_offset(text, at, offset)) return std::nullopt;
  date.tm_year = year - 1900;
  date.tm_mon = month - 1;
  date.tm_mday = day;
  date.tm_hour = hour;
  date.tm_min = minute;
  date.tm_sec = second;
  return static_cast<double>(::timegm(&date)) - offset + fraction;
}

std::optional<double> parse_span(std::string_view text) {
  double total = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    long number = 0;
    auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), number);
    if (error != std::errc() || end == text.data() + at || number < 0) return std::nullopt;
    at = static_cast<std::size_t>(end - text.data());
    if (at >= text.size()) return std::nullopt;  // a number needs its unit
    switch (text[at++]) {
      case 's': total += static_cast<double>(number); break;
      case 'm': total += static_cast<double>(number) * 60; break;
      case 'h': total += static_cast<double>(number) * 3600; break;
      case 'd': total += static_cast<double>(number) * 86400; break;
      default: return std::nullopt;
    }
  }
  if (text.empty()) return std::nullopt;
  return total;
}

}  // namespace

Result<double> parse_time_bound(std::string_view text, double now) {
  if (auto span = parse_span(text)) return now - *span;
  if (auto time = parse_rfc3339(text)) return *time;
  return make_error("'{}' is not a time: give RFC 3339 (2026-11-24T05:00:00Z, 2026-11-24T07:00:00+02:00) "
                    "or a span back from now (90s, 30m, 1h30m, 2d)", text);
}

std::string rfc3339_utc(double seconds) {
  double whole = std::floor(seconds);
  auto millis = static_cast<int>(std::lround((seconds - whole) * 1000));
  if (millis == 1000) {
    whole += 1;
    millis = 0;
  }
  std::time_t time = static_cast<std::time_t>(whole);
  std::tm utc{};
  ::gmtime_r(&time, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

}  // namespace graft
