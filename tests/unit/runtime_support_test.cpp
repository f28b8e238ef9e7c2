// SPDX-License-Identifier: Apache-2.0
// graft-runtime's small pieces: its error entries in runc's log formats, and
// how it finds the real runtime (a name on PATH, or an absolute path).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "real_runtime.hpp"
#include "runtime_log.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using graft::runtime::find_on_path;
using graft::runtime::find_real_runtime;
using graft::runtime::runtime_log_line;

namespace {

// An executable runtime script of `mode` in `dir`.
std::string runtime_script(const std::string& dir, mode_t mode) {
  std::string path = dir + "/runc";
  std::ofstream(path) << "#!/bin/sh\nexit 0\n";
  ::chmod(path.c_str(), mode);
  return path;
}

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

TEST_CASE("graft-runtime runs a real runtime owned by its own user and writable by it alone", "[runtime]") {
  fixture::TempDir dir("graft-runtime-path-");
  std::string path = runtime_script(dir.path(), 0755);
  auto found = find_real_runtime(path);
  INFO((found ? "" : found.error().message));
  REQUIRE(found);
  CHECK(*found == path);
}

// Issue 42: graft-runtime execs [runtime] path as root for every container
// and checked only that it was executable.
TEST_CASE("graft-runtime refuses a group- or world-writable real runtime, as graft refuses such a plugin",
          "[runtime]") {
  fixture::TempDir dir("graft-runtime-path-");
  std::string path = runtime_script(dir.path(), 0777);
  auto found = find_real_runtime(path);
  REQUIRE_FALSE(found);
  CHECK(found.error().message ==
        "[runtime] path: " + path + ": the file is group- or world-writable (mode 777)");
}

TEST_CASE("graft-runtime refuses a real runtime another user owns", "[runtime]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to make a file another user owns");
  fixture::TempDir dir("graft-runtime-path-");
  std::string path = runtime_script(dir.path(), 0755);
  REQUIRE(::chown(path.c_str(), 1000, 1000) == 0);
  auto found = find_real_runtime(path);
  REQUIRE_FALSE(found);
  CHECK_THAT(found.error().message, Catch::StartsWith("[runtime] path: " + path + ": owned by uid 1000"));
}

TEST_CASE("graft-runtime refuses a real runtime in a directory another user may write", "[runtime]") {
  fixture::TempDir dir("graft-runtime-path-");
  std::string path = runtime_script(dir.path(), 0755);
  REQUIRE(::chmod(dir.path().c_str(), 0777) == 0);
  auto found = find_real_runtime(path);
  REQUIRE_FALSE(found);
  CHECK_THAT(found.error().message, Catch::Contains("is group- or world-writable"));
}
