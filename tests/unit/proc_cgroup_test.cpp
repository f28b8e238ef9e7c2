// SPDX-License-Identifier: Apache-2.0
// graft_base's /proc/<pid>/cgroup parser (base/include/graft/base/proc_cgroup.hpp),
// which core's container match and the plugins' cgroup lookup both use:
// cgroup v1, v2 and hybrid texts, lines it skips, and a real file read with
// the bound the callers use.
#include <catch2/catch.hpp>

#include <vector>

#include "graft/base/bounded_read.hpp"
#include "graft/base/proc_cgroup.hpp"

using namespace graft;

TEST_CASE("cgroup v1 lines give their hierarchy, controllers and path", "[cgroup][base]") {
  auto lines = parse_proc_cgroup("12:devices:/docker/9e8d\n4:cpu,cpuacct:/docker/9e8d\n"
                                 "1:name=systemd:/system.slice/docker-9e8d.scope\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].hierarchy == "12");
  CHECK(lines[0].controllers == "devices");
  CHECK(lines[0].path == "/docker/9e8d");
  CHECK(lines[1].controllers == "cpu,cpuacct");
  CHECK(lines[2].controllers == "name=systemd");
  CHECK(lines[2].path == "/system.slice/docker-9e8d.scope");
}

TEST_CASE("the cgroup v2 line 0::/path has no controllers", "[cgroup][base]") {
  auto lines = parse_proc_cgroup("0::/user.slice/user-1000.slice/session-3.scope\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].hierarchy == "0");
  CHECK(lines[0].controllers.empty());
  CHECK(lines[0].path == "/user.slice/user-1000.slice/session-3.scope");
}

TEST_CASE("a hybrid text keeps its v1 lines and its v2 line in order", "[cgroup][base]") {
  auto lines = parse_proc_cgroup("5:devices:/k8s/ab12\n0::/k8s/ab12\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].controllers == "devices");
  CHECK(lines[1].hierarchy == "0");
  CHECK(lines[1].controllers.empty());
}

TEST_CASE("lines without two colons are skipped and a path keeps its own colons", "[cgroup][base]") {
  auto lines = parse_proc_cgroup("\ngarbage\n3:devices\n0::/a:b\n7:devices:/last-without-newline");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].path == "/a:b");
  CHECK(lines[1].path == "/last-without-newline");
  CHECK(parse_proc_cgroup("").empty());
}

TEST_CASE("this process's own /proc/self/cgroup, read with a bound, parses to absolute paths",
          "[cgroup][base]") {
  auto text = read_file("/proc/self/cgroup", 1u << 20);
  REQUIRE(text.ok());
  auto lines = parse_proc_cgroup(*text);
  REQUIRE_FALSE(lines.empty());
  for (const auto& line : lines) CHECK(line.path.starts_with("/"));
}
