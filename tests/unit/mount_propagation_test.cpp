// SPDX-License-Identifier: Apache-2.0
// graft's binds never stay peers of the host's mounts. The
// host source sits on a shared mount (as /, /dev, /run and /proc do on a
// systemd host); the plugins clone and attach it; a mount made on top of the
// attached bind, as a container with CAP_SYS_ADMIN would make it, must not
// show on the host's copy, and the bind itself carries no peer group.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fstream>
#include <sstream>

#include "fixture_files.hpp"
#include "mount_support.hpp"

using namespace graft;
using graft::test::MountSandbox;

namespace {

// A tmpfs made shared inside the sandbox's namespace: the "host" side.
struct SharedHostDir {
  fixture::TempDir dir{"graft-shared-host-"};
  SharedHostDir() {
    REQUIRE(::mount("host", dir.path().c_str(), "tmpfs", 0, "mode=755") == 0);
    REQUIRE(::mount(nullptr, dir.path().c_str(), nullptr, MS_SHARED, nullptr) == 0);
  }
  ~SharedHostDir() { ::umount2(dir.path().c_str(), MNT_DETACH); }
  std::string path(const std::string& name) const { return dir.path() + "/" + name; }
};

// The optional fields ("shared:N", "master:N") of the mount at `point`.
std::string propagation_of(const std::string& point) {
  std::ifstream in("/proc/self/mountinfo");
  std::string found = "not mounted";
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point, options, field, tags;
    fields >> id >> parent >> device >> root >> mount_point >> options;
    while (fields >> field && field != "-") tags += (tags.empty() ? "" : " ") + field;
    if (mount_point == point) found = tags;  // the last one is the top mount
  }
  return found;
}

Action bind(const std::string& plugin, std::string source, std::string target,
            std::vector<std::string> options) {
  return Action{.kind = ActionKind::bind_mount, .plugin = plugin, .source = std::move(source),
                .target = std::move(target), .options = std::move(options)};
}

// Covers `inside` with a file bind, as a container would, and reports
// whether the host's copy at `host_path` now shows the cover's bytes.
bool cover_reaches_host(const MountSandbox& sandbox, const std::string& inside,
                        const std::string& host_path) {
  std::string evil = sandbox.path("/evil");
  fixture::write_file(evil, "evil\n");
  REQUIRE(::mount(evil.c_str(), sandbox.path(inside).c_str(), nullptr, MS_BIND, nullptr) == 0);
  return test::read_all(host_path) == "evil\n";
}

}  // namespace

TEST_CASE("A library cloned from a shared host mount is attached private, and a mount over it stays in the container",
          "[plugins][mount][propagation]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  SharedHostDir host;
  fixture::write_file(host.path("libcuda.so.1"), "the host's driver\n");
  auto plugin = test::load_mechanism_plugin("libraries");
  std::string target = "/usr/lib/libcuda.so.1";
  REQUIRE(test::run_plugin(*plugin, {bind("libraries", host.path("libcuda.so.1"), target,
                                          {"ro", "nosuid", "nodev"})},
                           sandbox.target())
              .ok());
  CHECK(propagation_of(sandbox.path(target)).empty());
  CHECK_FALSE(cover_reaches_host(sandbox, target, host.path("libcuda.so.1")));
  CHECK(test::read_all(host.path("libcuda.so.1")) == "the host's driver\n");
}

TEST_CASE("A socket cloned from a shared host mount is attached private, and a mount over it stays in the container",
          "[plugins][mount][propagation]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  SharedHostDir host;
  REQUIRE(::mknod(host.path("socket").c_str(), S_IFSOCK | 0666, 0) == 0);
  auto plugin = test::load_mechanism_plugin("ipc");
  std::string target = "/run/daemon/socket";
  REQUIRE(test::run_plugin(*plugin, {bind("ipc", host.path("socket"), target,
                                          {"ro", "nosuid", "nodev", "noexec"})},
                           sandbox.target())
              .ok());
  CHECK(propagation_of(sandbox.path(target)).empty());
  CHECK_FALSE(cover_reaches_host(sandbox, target, host.path("socket")));
  struct stat st {};
  REQUIRE(::lstat(host.path("socket").c_str(), &st) == 0);
  CHECK(S_ISSOCK(st.st_mode));
}

TEST_CASE("A device node cloned from a shared host mount is attached private, and a mount over it stays in the container",
          "[plugins][mount][propagation]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  SharedHostDir host;
  REQUIRE(::mknod(host.path("nvidia1").c_str(), S_IFCHR | 0666, makedev(195, 1)) == 0);
  auto plugin = test::load_mechanism_plugin("devices");
  Action node{.kind = ActionKind::device_node, .plugin = "devices", .source = host.path("nvidia1"),
              .target = "/dev/nvidia1", .options = {"bind"}, .device_type = 'c', .major = 195,
              .minor = 1};
  REQUIRE(test::run_plugin(*plugin, {node}, sandbox.target()).ok());
  CHECK(propagation_of(sandbox.path("/dev/nvidia1")).empty());
  CHECK_FALSE(cover_reaches_host(sandbox, "/dev/nvidia1", host.path("nvidia1")));
  struct stat st {};
  REQUIRE(::lstat(host.path("nvidia1").c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("A directory cloned from a shared host mount is attached private, and a tmpfs over it stays in the container",
          "[plugins][mount][propagation]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  SharedHostDir host;
  fixture::make_dirs(host.path("nvidia-mps"));
  fixture::write_file(host.path("nvidia-mps/control"), "pipe\n");
  auto plugin = test::load_mechanism_plugin("ipc");
  std::string target = "/tmp/nvidia-mps";
  REQUIRE(test::run_plugin(*plugin, {bind("ipc", host.path("nvidia-mps"), target,
                                          {"rw", "nosuid", "nodev", "noexec"})},
                           sandbox.target())
              .ok());
  CHECK(propagation_of(sandbox.path(target)).empty());
  REQUIRE(::mount("cover", sandbox.path(target).c_str(), "tmpfs", 0, nullptr) == 0);
  CHECK(test::read_all(host.path("nvidia-mps/control")) == "pipe\n");
  CHECK(propagation_of(host.path("nvidia-mps")) == "not mounted");
}
