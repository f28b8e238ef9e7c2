// SPDX-License-Identifier: Apache-2.0
// The devices plugin against a real mount namespace: host nodes bound into
// the root (nodev cleared so they work), nodes made with mknod, and what is
// accepted or refused at a target. Opening a fake node gives ENXIO: the
// node works, there is just no driver behind its major.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>

#include "fake_host.hpp"
#include "mount_support.hpp"

using namespace graft;
using graft::test::MountSandbox;

namespace {

constexpr unsigned kFrontend = 195;

Action node(std::string source, std::string target, unsigned minor, std::string how = "bind") {
  return Action{.kind = ActionKind::device_node, .plugin = "devices", .source = std::move(source),
                .target = std::move(target), .options = {std::move(how)}, .device_type = 'c',
                .major = kFrontend, .minor = minor};
}

// A host with two GPUs' nodes and nothing else worth building.
fixture::FakeHost node_host() {
  auto spec = fixture::FakeHostSpec::with_gpus(2);
  spec.with_libraries = spec.with_binaries = spec.with_firmware = false;
  return fixture::FakeHost::build(spec);
}

void make_node(const std::string& path, unsigned minor) {
  REQUIRE(::mknod(path.c_str(), S_IFCHR | 0666, makedev(kFrontend, minor)) == 0);
}

}  // namespace

TEST_CASE("A host device node bound into the root opens with ENXIO, not EACCES",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  REQUIRE(test::run_plugin(*plugin, {node(host.path("dev/nvidia1"), "/dev/nvidia1", 1)},
                           sandbox.target())
              .ok());
  struct stat st {};
  REQUIRE(::stat(sandbox.path("/dev/nvidia1").c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK(st.st_rdev == makedev(kFrontend, 1));
  CHECK(test::open_errno(sandbox.path("/dev/nvidia1"), O_RDWR) == ENXIO);
  CHECK((test::mount_flags(sandbox.path("/dev/nvidia1")) & ST_NOSUID) != 0);
}

TEST_CASE("A device node from a nodev host mount still works: nodev is cleared on the clone",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  fixture::TempDir nodev_dir("graft-nodev-");
  REQUIRE(::mount("nodev", nodev_dir.path().c_str(), "tmpfs", MS_NODEV, nullptr) == 0);
  std::string host_node = nodev_dir.path() + "/nvidia0";
  make_node(host_node, 0);
  REQUIRE(test::open_errno(host_node, O_RDWR) == EACCES);  // the host mount says nodev
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = test::run_plugin(*plugin, {node(host_node, "/dev/nvidia0", 0)}, sandbox.target());
  ::umount2(nodev_dir.path().c_str(), MNT_DETACH);
  REQUIRE(status.ok());
  CHECK((test::mount_flags(sandbox.path("/dev/nvidia0")) & ST_NODEV) == 0);
  CHECK(test::open_errno(sandbox.path("/dev/nvidia0"), O_RDWR) == ENXIO);
}

TEST_CASE("A bound host node is read-only: it opens for writing, but chmod and chown through it fail with EROFS",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  MountSandbox sandbox;
  struct stat before {};
  REQUIRE(::stat(host.path("dev/nvidia1").c_str(), &before) == 0);
  auto plugin = test::load_mechanism_plugin("devices");
  REQUIRE(test::run_plugin(*plugin, {node(host.path("dev/nvidia1"), "/dev/nvidia1", 1)},
                           sandbox.target())
              .ok());
  CHECK((test::mount_flags(sandbox.path("/dev/nvidia1")) & ST_RDONLY) != 0);
  CHECK(test::open_errno(sandbox.path("/dev/nvidia1"), O_RDWR) == ENXIO);
  CHECK(::chmod(sandbox.path("/dev/nvidia1").c_str(), 0600) == -1);
  CHECK(errno == EROFS);
  CHECK(::chown(sandbox.path("/dev/nvidia1").c_str(), 4242, 4242) == -1);
  CHECK(errno == EROFS);
  struct stat after {};
  REQUIRE(::stat(host.path("dev/nvidia1").c_str(), &after) == 0);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_uid == before.st_uid);
  CHECK(after.st_ctim.tv_nsec == before.st_ctim.tv_nsec);
}

TEST_CASE("A node planned with mknod is made inside the root, mode 0666, owned by the container",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  auto action = node("", "/dev/nvidia-caps/nvidia-cap3", 3, "mknod");
  REQUIRE(test::run_plugin(*plugin, {action}, sandbox.target(1000, 1001)).ok());
  struct stat st {};
  REQUIRE(::lstat(sandbox.path("/dev/nvidia-caps/nvidia-cap3").c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK((st.st_mode & 07777) == 0666);
  CHECK(st.st_rdev == makedev(kFrontend, 3));
  CHECK(st.st_uid == 1000);
  CHECK(st.st_gid == 1001);
  REQUIRE(::lstat(sandbox.path("/dev/nvidia-caps").c_str(), &st) == 0);
  CHECK(st.st_uid == 1000);
}

TEST_CASE("A node the runtime already made with the same number is accepted at the target",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  MountSandbox sandbox;
  REQUIRE(::mkdir(sandbox.path("/dev").c_str(), 0755) == 0);
  make_node(sandbox.path("/dev/nvidia1"), 1);
  auto plugin = test::load_mechanism_plugin("devices");
  CHECK(test::run_plugin(*plugin, {node(host.path("dev/nvidia1"), "/dev/nvidia1", 1)},
                         sandbox.target())
            .ok());
  CHECK(test::run_plugin(*plugin, {node("", "/dev/nvidia1", 1, "mknod")}, sandbox.target()).ok());
}

TEST_CASE("Another device node at the target is refused, naming the target and both numbers",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  MountSandbox sandbox;
  REQUIRE(::mkdir(sandbox.path("/dev").c_str(), 0755) == 0);
  make_node(sandbox.path("/dev/nvidia1"), 7);
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = test::run_plugin(*plugin, {node(host.path("dev/nvidia1"), "/dev/nvidia1", 1)},
                                 sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("/dev/nvidia1 is device 195:7") &&
                                         Catch::Contains("expected c 195:1"));
}

TEST_CASE("A symlink planted at a device target is refused, not followed",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  MountSandbox sandbox;
  REQUIRE(::mkdir(sandbox.path("/dev").c_str(), 0755) == 0);
  REQUIRE(::symlink("/etc/passwd", sandbox.path("/dev/nvidia1").c_str()) == 0);
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = test::run_plugin(*plugin, {node(host.path("dev/nvidia1"), "/dev/nvidia1", 1)},
                                 sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("/dev/nvidia1 exists and is a symlink"));
}

TEST_CASE("A host source that is not the planned device is refused in prepare, naming it",
          "[plugins][mount][devices]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = node_host();
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = plugin->prepare(node(host.path("dev/nvidia0"), "/dev/nvidia1", 1), 0,
                                ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(host.path("dev/nvidia0")) && Catch::Contains("is device 195:0, expected c 195:1"));
  auto not_a_node = plugin->prepare(node(host.path("proc/driver/nvidia/version"), "/dev/x", 1),
                                    1, ApplyTarget{});
  REQUIRE_FALSE(not_a_node.ok());
  CHECK_THAT(not_a_node.error().message, Catch::Contains("is a regular file, expected"));
}
