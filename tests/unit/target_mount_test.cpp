// SPDX-License-Identifier: Apache-2.0
// Targets must land on the mount they belong to (plugins/common/root_mount):
// RESOLVE_IN_ROOT keeps an image symlink inside the root, but not off a
// volume the runtime mounted there, or off /dev/shm. Real mounts inside a
// tmpfs root, in a private mount namespace, driven through the real plugins.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <string>

#include "library_host.hpp"
#include "fake_host.hpp"
#include "ldcache_support.hpp"
#include "mount_support.hpp"

using namespace graft;
using namespace graft::testing;
using graft::test::entries;
using graft::test::MountSandbox;

namespace {


// A tmpfs mounted at `path`: a "volume", or the runtime's /dev and /dev/shm.
void mount_tmpfs(const std::string& path) {
  ::mkdir(path.c_str(), 0755);
  REQUIRE(::mount("graft-test-volume", path.c_str(), "tmpfs", 0, "mode=0755") == 0);
}

// The image's /usr/lib/x86_64-linux-gnu is a symlink to /data, a volume.
void steer_libdir_to_volume(const MountSandbox& sandbox) {
  mount_tmpfs(sandbox.path("/data"));
  REQUIRE(::mkdir(sandbox.path("/usr").c_str(), 0755) == 0);
  REQUIRE(::mkdir(sandbox.path("/usr/lib").c_str(), 0755) == 0);
  REQUIRE(::symlink("/data", sandbox.path(kLibDir).c_str()) == 0);
}


Action mknod_action(const std::string& target, unsigned minor) {
  return Action{.kind = ActionKind::device_node, .plugin = "devices", .target = target,
                .options = {"mknod"}, .device_type = 'c', .major = 195, .minor = minor,
                .access = "rw"};
}

}  // namespace

TEST_CASE("A library bind steered onto a volume by an image symlink is refused in one line",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  steer_libdir_to_volume(sandbox);
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains("parent " + kLibDir + " is on another mount than the container root"));
  CHECK(status.error().message.find('\n') == std::string::npos);
  CHECK(entries(sandbox.path("/data")).empty());
}

TEST_CASE("A soname symlink steered onto a volume by an image symlink is refused",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  steer_libdir_to_volume(sandbox);
  auto plugin = test::load_mechanism_plugin("libraries");
  Action link{.kind = ActionKind::symlink, .plugin = "libraries", .source = kCuda,
              .target = kLibDir + "/libcuda.so.1"};
  auto status = test::run_plugin(*plugin, {link}, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("on another mount"));
  CHECK(entries(sandbox.path("/data")).empty());
}

TEST_CASE("Missing directories are not made on a volume an image symlink leads to",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  mount_tmpfs(sandbox.path("/data"));
  REQUIRE(::symlink("/data", sandbox.path("/usr").c_str()) == 0);
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("on another mount"));
  CHECK(entries(sandbox.path("/data")).empty());
}

TEST_CASE("A device node under /dev steered onto /dev/shm by an image symlink is refused",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  mount_tmpfs(sandbox.path("/dev"));
  mount_tmpfs(sandbox.path("/dev/shm"));
  REQUIRE(::symlink("/dev/shm", sandbox.path("/dev/nvidia-caps").c_str()) == 0);
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = test::run_plugin(*plugin, {mknod_action("/dev/nvidia-caps/nvidia-cap3", 3)},
                                 sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("is on another mount than /dev"));
  CHECK(entries(sandbox.path("/dev/shm")).empty());
}

TEST_CASE("A device node goes on the runtime's /dev mount, and a plain root's /dev still works",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  // /dev a directory of the root (no mount of its own).
  REQUIRE(test::run_plugin(*plugin, {mknod_action("/dev/nvidia-caps/nvidia-cap3", 3)},
                           sandbox.target())
              .ok());
  // /dev a tmpfs, as runc mounts it.
  MountSandbox other;
  mount_tmpfs(other.path("/dev"));
  auto fresh = test::load_mechanism_plugin("devices");
  REQUIRE(test::run_plugin(*fresh, {mknod_action("/dev/nvidia-caps/nvidia-cap3", 3)},
                           other.target())
              .ok());
  struct stat st {};
  CHECK(::lstat(other.path("/dev/nvidia-caps/nvidia-cap3").c_str(), &st) == 0);
}

TEST_CASE("A /dev that is an image symlink is refused for device nodes",
          "[plugins][mount][target-mount]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  mount_tmpfs(sandbox.path("/data"));
  REQUIRE(::symlink("/data", sandbox.path("/dev").c_str()) == 0);
  auto plugin = test::load_mechanism_plugin("devices");
  auto status = test::run_plugin(*plugin, {mknod_action("/dev/nvidia0", 0)}, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK(entries(sandbox.path("/data")).empty());
}

TEST_CASE("The ld cache is not written onto a volume an image symlink leads /etc to",
          "[plugins][mount][target-mount][ldcache]") {
  GRAFT_REQUIRE_MOUNTS();
  GRAFT_SKIP_IF(ldcache_test::no_static_ldconfig());
  MountSandbox sandbox;  // only for its private mount namespace
  ldcache_test::Rootfs rootfs(/*with_etc=*/false);
  mount_tmpfs(rootfs.path("data"));
  REQUIRE(::symlink("/data", rootfs.path("etc").c_str()) == 0);
  auto plugin = ldcache_test::load();
  auto status = ldcache_test::prepare_and_apply(*plugin, rootfs);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("parent /etc is on another mount"));
  CHECK(entries(rootfs.path("data")).empty());
}
