// SPDX-License-Identifier: Apache-2.0
// graft-runtime's small pieces: its error entries in runc's log formats, and
// how it finds the real runtime (a name on PATH, or an absolute path).
#include <catch2/catch.hpp>

#include "real_runtime.hpp"
#include "runtime_log.hpp"

using graft::runtime::find_on_path;
using graft::runtime::runtime_log_line;

namespace {

bool only_in_sbin(const std::string& path) { return path == "/usr/sbin/runc"; }
bool nothing_is_executable(const std::string&) { return false; }
bool every_file_is_executable(const std::string&) { return true; }

}  // namespace

TEST_CASE("an error entry in runc's json log format is one JSON line", "[runtime]") {
  CHECK(runtime_log_line("json", "graft-runtime: a \"quoted\" name", "2026-11-24T02:09:35.000000001Z") ==
        R"({"level":"error","msg":"graft-runtime: a \"quoted\" name","time":"2026-11-24T02:09:35.000000001Z"})"
        "\n");
}

TEST_CASE("an error entry in runc's text log format is logrus's key=value line", "[runtime]") {
  CHECK(runtime_log_line("text", "graft-runtime: a \"b\" \\ c", "T") ==
        "time=\"T\" level=error msg=\"graft-runtime: a \\\"b\\\" \\\\ c\"\n");
  CHECK(runtime_log_line("", "m", "T") == "time=\"T\" level=error msg=\"m\"\n");
}

TEST_CASE("the real runtime is found on PATH in order, empty entries skipped", "[runtime]") {
  auto found = find_on_path("runc", "::/usr/local/bin:/usr/sbin:/sbin", only_in_sbin);
  REQUIRE(found);
  CHECK(*found == "/usr/sbin/runc");
  CHECK(*find_on_path("runc", "/a:/b", every_file_is_executable) == "/a/runc");
}

TEST_CASE("relative PATH entries, '.' among them, never find the real runtime", "[runtime]") {
  // The engine runs graft-runtime in the bundle: "." would be the bundle's runc.
  CHECK(*find_on_path("runc", ".:bin:./sbin::/usr/sbin", every_file_is_executable) == "/usr/sbin/runc");
  auto only_relative = find_on_path("runc", ".:bin", every_file_is_executable);
  REQUIRE_FALSE(only_relative);
  CHECK(only_relative.error().message == "runtime runc is not on PATH (.:bin)");
}

TEST_CASE("without PATH the real runtime is looked for in the system directories", "[runtime]") {
  auto found = find_on_path("runc", nullptr, only_in_sbin);
  REQUIRE(found);
  CHECK(*found == "/usr/sbin/runc");
}

TEST_CASE("a runtime that is not on PATH or not executable is an error naming it", "[runtime]") {
  auto missing = find_on_path("runc", "/a:/b", nothing_is_executable);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "runtime runc is not on PATH (/a:/b)");
  auto absolute = find_on_path("/opt/crun", "/a", nothing_is_executable);
  REQUIRE_FALSE(absolute);
  CHECK(absolute.error().message == "runtime /opt/crun is not an executable file");
  CHECK(*find_on_path("/opt/crun", "/a", every_file_is_executable) == "/opt/crun");
}
