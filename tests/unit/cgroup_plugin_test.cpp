// SPDX-License-Identifier: Apache-2.0
// The cgroup plugin, loaded from the build tree and driven through
// prepare/apply/finish against a real child process in a fresh cgroup: a
// device the plan grants opens (ENXIO: major 195 has no driver here, so the
// cgroup check passed), one it does not grant is refused (EPERM), and the
// runtime's own rule (/dev/null) survives. Needs root; the v2 cases are in
// cgroup_v2_plugin_test.cpp.
#include <catch2/catch.hpp>

#include "cgroup_support.hpp"

using namespace graft;
using namespace graft::cgroup_test;

TEST_CASE("The cgroup plugin refuses unknown config keys and relative paths", "[plugins][cgroup]") {
  auto unknown = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", R"({"cgroups": "/x"})");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::Contains("unknown config key 'cgroups'"));
  auto relative = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", R"({"cgroup_root": "sys"})");
  REQUIRE_FALSE(relative.ok());
  CHECK_THAT(relative.error().message, Catch::Contains("must be an absolute path"));
}

TEST_CASE("A cgroup rule with a bad type, access or number is refused in prepare",
          "[plugins][cgroup]") {
  auto plugin = load_cgroup_plugin("{}");
  ApplyTarget target{.pid = ::getpid()};
  Action block_x = allow(195, 1);
  block_x.device_type = 'x';
  CHECK_THAT(plugin->prepare(block_x, 0, target).error().message,
             Catch::Contains("device type must be 'c' or 'b'"));
  CHECK_THAT(plugin->prepare(allow(195, 1, "rx"), 0, target).error().message,
             Catch::Contains("access 'rx' is not a set of r, w, m"));
  CHECK_THAT(plugin->prepare(allow(195, 1, "rr"), 0, target).error().message,
             Catch::Contains("access 'rr'"));
  CHECK_THAT(plugin->prepare(allow(4096, 1), 0, target).error().message,
             Catch::Contains("out of range"));
  CHECK_THAT(plugin->prepare(allow(195, 1), 0, ApplyTarget{}).error().message,
             Catch::Contains("no container pid"));
}

TEST_CASE("On cgroup v1 a granted device opens, others stay denied and the runtime's rules remain",
          "[plugins][cgroup]") {
  const std::string devices = devices_v1_or_skip("cgroups, mknod");
  if (devices.empty()) return;
  // cgroup_root is the directory holding the v1 hierarchies (a tmpfs):
  // statfs says v1 there, as it does to runc.
  const std::string root = fs::path(devices).parent_path().string();
  Nodes nodes;
  ChildCgroup cgroup(devices);
  // Like a runtime: deny everything, then allow /dev/null.
  REQUIRE(write_text(cgroup.path / "devices.deny", "a"));
  REQUIRE(write_text(cgroup.path / "devices.allow", "c 1:3 rwm"));
  Probe probe;
  cgroup.add(probe.pid());
  REQUIRE(probe.open_errno(nodes.n1) == EPERM);

  auto plugin = load_cgroup_plugin(R"({"cgroup_root": ")" + root + R"("})");
  auto status = run_phases(*plugin, {allow(195, 1), allow(195, 3, "r")}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());

  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == EPERM);
  CHECK(probe.open_errno(nodes.n3, O_RDONLY) == ENXIO);
  CHECK(probe.open_errno(nodes.n3, O_RDWR) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
  std::ifstream list(cgroup.path / "devices.list");
  std::stringstream text;
  text << list.rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("c 195:1 rw") && Catch::Contains("c 1:3 rwm"));
}

TEST_CASE("On cgroup v1 a write the kernel refuses names the cgroup and the rule",
          "[plugins][cgroup]") {
  const std::string devices = devices_v1_or_skip("cgroups");
  if (devices.empty()) return;
  // A child cgroup may not allow more than its parent: parent denies all.
  ChildCgroup parent(devices);
  REQUIRE(write_text(parent.path / "devices.deny", "a"));
  ChildCgroup cgroup(parent.path);
  Probe probe;
  cgroup.add(probe.pid());
  auto plugin = load_cgroup_plugin(
      R"({"cgroup_root": ")" + fs::path(devices).parent_path().string() + R"("})");
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(cgroup.path.string()) && Catch::Contains("'c 195:1 rw'") &&
                 Catch::Contains("devices.allow"));
}
