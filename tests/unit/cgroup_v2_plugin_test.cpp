// SPDX-License-Identifier: Apache-2.0
// The cgroup plugin on cgroup v2: the runtime's eBPF device program is
// replaced by a wrapper that allows the planned devices and tail-calls the
// original for everything else. Each case runs in a private mount namespace
// on its own cgroup2 and bpf mounts, with a real child process in a fresh
// cgroup. Needs root and bpf().
#include <catch2/catch.hpp>

#include <linux/magic.h>
#include <sys/statfs.h>

#include "cgroup_support.hpp"

using namespace graft;
using namespace graft::cgroup_test;

TEST_CASE("On cgroup v2 the runtime's device program is wrapped: granted devices open, its rules "
          "stay, and they outlive the plugin",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  REQUIRE(runtime_ids.size() == 1);
  REQUIRE(probe.open_errno(nodes.n1) == EPERM);
  REQUIRE(probe.open_errno("/dev/null") == 0);

  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1), allow(195, 3, "r")}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());

  auto check_access = [&] {
    CHECK(probe.open_errno(nodes.n1) == ENXIO);
    CHECK(probe.open_errno(nodes.n2) == EPERM);
    CHECK(probe.open_errno(nodes.n3, O_RDONLY) == ENXIO);
    CHECK(probe.open_errno(nodes.n3, O_RDWR) == EPERM);
    CHECK(probe.open_errno("/dev/null") == 0);
  };
  check_access();
  // One program still attached, and it is not the runtime's any more.
  const auto ids = attached_ids(cgroup.path);
  REQUIRE(ids.size() == 1);
  CHECK(ids[0] != runtime_ids[0]);
  CHECK(names_in(v2->bpffs / "graft").size() == 1);

  // Every fd the plugin held is closed: the pin keeps the runtime's program
  // reachable (an unpinned prog array is emptied once its last fd goes).
  plugin.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  check_access();
}

TEST_CASE("On cgroup v2 a cgroup without a device program gets nothing installed",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::none);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());
  CHECK(attached_ids(cgroup.path).empty());
  CHECK(names_in(v2->bpffs / "graft").empty());
  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == ENXIO);
  CHECK(probe.open_errno("/dev/null") == 0);
}

TEST_CASE("On cgroup v2 an empty rule list leaves the runtime's program in place",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {}, probe.pid());
  REQUIRE(status.ok());
  CHECK(attached_ids(cgroup.path) == runtime_ids);
  CHECK(names_in(v2->bpffs / "graft").empty());
  CHECK(probe.open_errno(nodes.n1) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
}

TEST_CASE("On cgroup v2 the pin of a removed cgroup is swept by the next install",
          "[plugins][cgroup]") {
  auto v2 = private_v2_or_skip();
  if (!v2) return;
  auto install_in = [&](ChildCgroup& cgroup) {
    attach_runtime_program(cgroup.path);
    Probe probe;
    cgroup.add(probe.pid());
    auto plugin = load_cgroup_plugin(v2->config());
    auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
    INFO((status.ok() ? std::string() : status.error().message));
    REQUIRE(status.ok());
  };
  std::vector<std::string> first_pins;
  {
    ChildCgroup first(v2->cgroup2);
    install_in(first);
    first_pins = names_in(v2->bpffs / "graft");
    REQUIRE(first_pins.size() == 1);
  }  // the probe is reaped and the cgroup removed
  ChildCgroup second(v2->cgroup2);
  install_in(second);
  auto pins = names_in(v2->bpffs / "graft");
  REQUIRE(pins.size() == 1);
  CHECK(pins[0] != first_pins[0]);
}

TEST_CASE("On cgroup v2 a device program attached without BPF_F_ALLOW_MULTI is replaced in place",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::single);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  REQUIRE(runtime_ids.size() == 1);

  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());
  const auto ids = attached_ids(cgroup.path);
  REQUIRE(ids.size() == 1);
  CHECK(ids[0] != runtime_ids[0]);
  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
}

namespace {

bool is_bpf_filesystem(const fs::path& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && static_cast<unsigned long>(fs.f_type) == BPF_FS_MAGIC;
}

}  // namespace

TEST_CASE("On cgroup v2 a host with no bpf filesystem mounted gets one at the bpffs path, and the "
          "rules outlive the plugin",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi, Bpffs::absent);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  REQUIRE_FALSE(is_bpf_filesystem(v2->bpffs));

  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());
  CHECK(is_bpf_filesystem(v2->bpffs));
  CHECK(names_in(v2->bpffs / "graft").size() == 1);
  CHECK((fs::status(v2->bpffs).permissions() & fs::perms::all) == fs::perms::owner_all);

  plugin.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
}

TEST_CASE("On cgroup v2 with mount_bpffs off and no bpf filesystem the plugin fails, says what to "
          "mount, and leaves the runtime's program alone",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi, Bpffs::absent);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  std::string config = v2->config();
  config.insert(config.size() - 1, R"(, "mount_bpffs": "off")");

  auto plugin = load_cgroup_plugin(config);
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(v2->bpffs.string() + " is not a bpf filesystem (mount -t bpf bpf"));
  CHECK_FALSE(is_bpf_filesystem(v2->bpffs));
  CHECK(attached_ids(cgroup.path) == runtime_ids);
  CHECK(probe.open_errno(nodes.n1) == EPERM);
}

TEST_CASE("The cgroup plugin refuses a mount_bpffs other than auto or off", "[plugins][cgroup]") {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", R"({"mount_bpffs": "yes"})");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message, Catch::Contains("'mount_bpffs' must be \"auto\" or \"off\""));
}
