// SPDX-License-Identifier: Apache-2.0
// What the cgroup plugin tells systemd and about which unit
// (plugins/common/systemd_unit.hpp, plugins/cgroup/unit_object_path.hpp,
// plugins/cgroup/unit_device_policy.hpp), and the /dev/char links graft-runtime
// makes so runc's systemd driver passes a spec's devices on
// (base's device_number_link.hpp, frontends/graft-runtime/systemd_links.hpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "graft/base/device_number_link.hpp"
#include "graft/base/systemd_booted.hpp"
#include "skip.hpp"
#include "sd_bus_library.hpp"
#include "systemd_links.hpp"
#include "systemd_unit.hpp"
#include "temp_dir.hpp"
#include "unit_device_policy.hpp"
#include "unit_object_path.hpp"

using namespace graft;

namespace systemd_unit_test {

namespace fs = std::filesystem;

// Why libsystemd cannot be loaded here; "" when it can.
std::string sd_bus_skip_reason() {
  auto lib = cgroup::sd_bus_library();
  return lib.ok() ? std::string() : lib.error().message;
}

// `unit`'s object path, as graft asks libsystemd for it.
std::string object_path(const std::string& unit) {
  auto path = cgroup::unit_object_path(**cgroup::sd_bus_library(), unit);
  INFO((path.ok() ? std::string() : path.error().message));
  REQUIRE(path.ok());
  return *path;
}

// A directory standing in for /dev, with a character node c 195:1 in it.
struct DevDir {
  fixture::TempDir dir{"graft-devchar-"};
  std::string node = dir.path() + "/nvidia1";
  DevDir() { REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(195, 1)) == 0); }
  std::string link(const std::string& name) const { return dir.path() + "/char/" + name; }
};

}  // namespace systemd_unit_test

using namespace systemd_unit_test;

TEST_CASE("A cgroup whose last component is a scope or service names that unit", "[systemd]") {
  CHECK(cgroup::unit_of_cgroup("/sys/fs/cgroup/devices/system.slice/runc-abc.scope") == "runc-abc.scope");
  CHECK(cgroup::unit_of_cgroup("/kubepods.slice/kubepods-pod1.slice/cri-containerd-f00.scope") ==
        "cri-containerd-f00.scope");
  CHECK(cgroup::unit_of_cgroup("/system.slice/docker.service") == "docker.service");
}

TEST_CASE("A cgroupfs driver's cgroup, a slice, or a bare suffix names no unit", "[systemd]") {
  CHECK_FALSE(cgroup::unit_of_cgroup("/docker/abc").has_value());
  CHECK_FALSE(cgroup::unit_of_cgroup("/libpod_parent/libpod-abc").has_value());
  CHECK_FALSE(cgroup::unit_of_cgroup("/system.slice").has_value());
  CHECK_FALSE(cgroup::unit_of_cgroup("/x/.scope").has_value());
}

// The expected paths are what libsystemd 252's sd_bus_path_encode gave for
// these names (and what systemd answers for its units' objects).
TEST_CASE("A unit's D-Bus object path is the one sd-bus makes: every character but letters and digits escaped",
          "[systemd]") {
  GRAFT_SKIP_IF(sd_bus_skip_reason());
  CHECK(object_path("runc-a1.scope") == "/org/freedesktop/systemd1/unit/runc_2da1_2escope");
  CHECK(object_path("a_b@c.service") == "/org/freedesktop/systemd1/unit/a_5fb_40c_2eservice");
}

TEST_CASE("A unit whose name starts with a digit gets the object path sd-bus makes, its first digit escaped",
          "[systemd]") {
  GRAFT_SKIP_IF(sd_bus_skip_reason());
  CHECK(object_path("1abc.scope") == "/org/freedesktop/systemd1/unit/_31abc_2escope");
  CHECK(object_path("9.scope") == "/org/freedesktop/systemd1/unit/_39_2escope");
}

TEST_CASE("A unit with DevicePolicy=auto and no DeviceAllow= entry allows every device", "[systemd]") {
  CHECK(cgroup::allows_every_device({.policy = "auto", .allow_entries = 0}));
}

TEST_CASE("A unit with DevicePolicy=auto and a DeviceAllow= entry allows only its list and the standard devices",
          "[systemd]") {
  CHECK_FALSE(cgroup::allows_every_device({.policy = "auto", .allow_entries = 1}));
}

TEST_CASE("A unit with DevicePolicy=closed or strict, or a policy graft does not know, is closed even with no "
          "DeviceAllow= entry", "[systemd]") {
  CHECK_FALSE(cgroup::allows_every_device({.policy = "closed", .allow_entries = 0}));
  CHECK_FALSE(cgroup::allows_every_device({.policy = "strict", .allow_entries = 0}));
  CHECK_FALSE(cgroup::allows_every_device({.policy = "", .allow_entries = 0}));
  CHECK_FALSE(cgroup::allows_every_device({.policy = "open", .allow_entries = 0}));
}

TEST_CASE("DeviceAllow= names a device by its numbers under /dev/char or /dev/block", "[systemd]") {
  CHECK(cgroup::device_allow_path('c', 195, 255) == "/dev/char/195:255");
  CHECK(cgroup::device_allow_path('b', 8, 0) == "/dev/block/8:0");
}

TEST_CASE("systemd counts as a host's init only where its runtime directory says so", "[systemd]") {
  fixture::TempDir root("graft-root-");
  CHECK_FALSE(systemd_booted(root.path()));
  fs::create_directories(root.path() + "/run/systemd/system");
  CHECK(systemd_booted(root.path()));
}

TEST_CASE("A device number link is made to the node, under char/, created when missing", "[systemd][devchar]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  auto linked = link_device_number(dev.dir.path(), 'c', 195, 1, dev.node);
  INFO((linked.ok() ? std::string() : linked.error().message));
  REQUIRE(linked.ok());
  CHECK(*linked == LinkOutcome::made);
  CHECK(fs::read_symlink(dev.link("195:1")) == dev.node);
}

TEST_CASE("A device number link that already leads to a device node is left as it is", "[systemd][devchar]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  fs::create_directory(dev.dir.path() + "/char");
  fs::create_symlink("../nvidia1", dev.link("195:1"));
  auto linked = link_device_number(dev.dir.path(), 'c', 195, 1, dev.node);
  REQUIRE(linked.ok());
  CHECK(*linked == LinkOutcome::present);
  CHECK(fs::read_symlink(dev.link("195:1")) == "../nvidia1");
}

TEST_CASE("A dangling device number link is replaced", "[systemd][devchar]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  fs::create_directory(dev.dir.path() + "/char");
  fs::create_symlink("/nonexistent/nvidia1", dev.link("195:1"));
  auto linked = link_device_number(dev.dir.path(), 'c', 195, 1, dev.node);
  REQUIRE(linked.ok());
  CHECK(*linked == LinkOutcome::made);
  CHECK(fs::read_symlink(dev.link("195:1")) == dev.node);
}

TEST_CASE("A node that is not the device the rule names gets no link", "[systemd][devchar]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  auto linked = link_device_number(dev.dir.path(), 'c', 195, 2, dev.node);
  REQUIRE_FALSE(linked.ok());
  CHECK_THAT(linked.error().message, Catch::Contains("is not the device c 195:2"));
  CHECK_FALSE(fs::exists(dev.link("195:2")));
}

TEST_CASE("A char directory that is a symlink is not followed", "[systemd][devchar]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  fixture::TempDir elsewhere("graft-devchar-elsewhere-");
  fs::create_directory_symlink(elsewhere.path(), dev.dir.path() + "/char");
  auto linked = link_device_number(dev.dir.path(), 'c', 195, 1, dev.node);
  REQUIRE_FALSE(linked.ok());
  CHECK(fs::is_empty(elsewhere.path()));
}

TEST_CASE("graft-runtime links every spec device the host has, and skips those it lacks", "[systemd][devchar][runtime]") {
  if (::geteuid() != 0) GRAFT_SKIP("mknod needs root");
  DevDir dev;
  std::vector<DeviceNodeEdit> nodes{{"/dev/nvidia1", dev.node, 'c', 195, 1}, {"/dev/nvidia-uvm", "", 'c', 509, 0}};
  auto linked = runtime::link_spec_devices(nodes, dev.dir.path());
  INFO((linked.ok() ? std::string() : linked.error().message));
  REQUIRE(linked.ok());
  CHECK(fs::exists(dev.link("195:1")));
  CHECK_FALSE(fs::exists(fs::symlink_status(dev.link("509:0"))));
}
