// SPDX-License-Identifier: Apache-2.0
#include "runtime_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "graft/base/one_line.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::runtime {
namespace {

// Go's %q for the characters a message can hold: quotes and backslashes escaped.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string runtime_log_line(std::string_view format, std::string_view message, std::string_view time) {
  if (format == "json") {
    nlohmann::ordered_json entry{{"level", "error"}, {"msg", message}, {"time", time}};
    return entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  return fmt::format("time={} level=error msg={}\n", quoted(time), quoted(message));
}

std::string log_time_now() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  std::tm utc{};
  ::gmtime_r(&now.tv_sec, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:09}Z", date, now.tv_nsec);
}

void report_runtime_error(const RuntimeCommandLine& line, std::string_view message) {
  std::string text = "graft-runtime: " + one_line(std::string(message));
  std::fprintf(stderr, "%s\n", text.c_str());
  if (line.log_path.empty()) return;
  UniqueFd log(::open(line.log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!log.valid()) return;
  std::string entry = runtime_log_line(line.log_format, text, log_time_now());
  // One write: runc and the engine may append to the same file.
  [[maybe_unused]] ssize_t written = ::write(log.get(), entry.data(), entry.size());
}

}  // namespace graft::runtime
