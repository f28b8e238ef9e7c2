// SPDX-License-Identifier: Apache-2.0
// Asking the kernel about mounts by id (plugins/common/mount_by_id.hpp) names
// the mounts /proc/self/mountinfo lists, and the device cgroup found that way
// is the one found through mountinfo. Skips where the kernel has no
// statmount(2) (before Linux 6.8) or, for mounting, without root.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <linux/magic.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "container_cgroup.hpp"
#include "mount_by_id.hpp"
#include "mount_support.hpp"
#include "skip.hpp"

using graft::cgroup::MountEntry;
using graft::cgroup::mount_at;
using graft::cgroup::mounts_below;
using graft::test::MountSandbox;

namespace {

std::string kernel_skip_reason() {
  return mount_at("/") ? "" : "the kernel has no statmount(2) (Linux 6.8)";
}

std::vector<MountEntry> mountinfo_cgroup_mounts() {
  std::ifstream file("/proc/self/mountinfo");
  std::stringstream text;
  text << file.rdbuf();
  return graft::cgroup::parse_cgroup_mounts(text.str());
}

bool is_cgroup2(const std::string& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && static_cast<unsigned long>(fs.f_type) == CGROUP2_SUPER_MAGIC;
}

// Every item of the kernel's options ("devices") among mountinfo's super
// options ("rw,devices"), which also carry the superblock's flags.
bool options_agree(const MountEntry& by_id, const MountEntry& listed) {
  std::stringstream items(by_id.super_options);
  for (std::string item; std::getline(items, item, ',');)
    if (!graft::cgroup::has_item(listed.super_options, item)) return false;
  return true;
}

void mount_tmpfs(const std::string& path) {
  REQUIRE(::mkdir(path.c_str(), 0755) == 0);
  REQUIRE(::mount("tmpfs", path.c_str(), "tmpfs", 0, "size=64k") == 0);
}

}  // namespace

TEST_CASE("The kernel names by id the cgroup mounts mountinfo lists at the cgroup root",
          "[cgroup][mounts]") {
  GRAFT_SKIP_IF(kernel_skip_reason());
  const std::string root = "/sys/fs/cgroup";
  auto listed = mountinfo_cgroup_mounts();
  if (is_cgroup2(root)) {
    auto by_id = mount_at(root);
    REQUIRE(by_id);
    const MountEntry* last = nullptr;
    for (const auto& mount : listed)
      if (mount.mount_point == root && mount.fstype == "cgroup2") last = &mount;
    REQUIRE(last != nullptr);
    CHECK(by_id->mount_point == root);
    CHECK(by_id->root == last->root);
    CHECK(by_id->fstype == "cgroup2");
    return;
  }
  auto below = mounts_below(root);
  if (!below) GRAFT_SKIP(root << " is not a mount point here");
  std::vector<MountEntry> by_id, under_root;
  for (const auto& mount : *below)
    if (mount.fstype == "cgroup" || mount.fstype == "cgroup2") by_id.push_back(mount);
  for (const auto& mount : listed)
    if (mount.mount_point.rfind(root + "/", 0) == 0) under_root.push_back(mount);
  REQUIRE(by_id.size() == under_root.size());
  REQUIRE_FALSE(by_id.empty());
  for (size_t i = 0; i < by_id.size(); ++i) {
    CHECK(by_id[i].mount_point == under_root[i].mount_point);
    CHECK(by_id[i].root == under_root[i].root);
    CHECK(by_id[i].fstype == under_root[i].fstype);
    CHECK(options_agree(by_id[i], under_root[i]));
  }
}

TEST_CASE("A mount point with a space or a backslash comes back from the kernel unescaped",
          "[cgroup][mounts]") {
  GRAFT_REQUIRE_MOUNTS();
  GRAFT_SKIP_IF(kernel_skip_reason());
  MountSandbox sandbox;
  const std::string odd = sandbox.path("/a b\\c");
  mount_tmpfs(odd);
  auto at = mount_at(odd);
  REQUIRE(at);
  CHECK(at->mount_point == odd);
  CHECK(at->fstype == "tmpfs");
  CHECK(at->root == "/");
  CHECK(graft::cgroup::has_item(at->super_options, "size=64k"));
  auto below = mounts_below(sandbox.rootfs());
  REQUIRE(below);
  REQUIRE(below->size() == 1);
  CHECK((*below)[0].mount_point == odd);
}

TEST_CASE("A directory that is not a mount point is on its parent's mount and has nothing below it by id",
          "[cgroup][mounts]") {
  GRAFT_REQUIRE_MOUNTS();
  GRAFT_SKIP_IF(kernel_skip_reason());
  MountSandbox sandbox;
  const std::string plain = sandbox.path("/plain");
  REQUIRE(::mkdir(plain.c_str(), 0755) == 0);
  mount_tmpfs(plain + "/inner");
  auto at = mount_at(plain);
  REQUIRE(at);
  CHECK(at->mount_point == sandbox.rootfs());
  CHECK_FALSE(mounts_below(plain));
}

TEST_CASE("At most 64 mounts below one are named, in mount order, and more are left to mountinfo",
          "[cgroup][mounts]") {
  GRAFT_REQUIRE_MOUNTS();
  GRAFT_SKIP_IF(kernel_skip_reason());
  MountSandbox sandbox;
  for (int i = 0; i < 64; ++i) mount_tmpfs(sandbox.path("/m" + std::to_string(i)));
  auto below = mounts_below(sandbox.rootfs());
  REQUIRE(below);
  REQUIRE(below->size() == 64);
  for (int i = 0; i < 64; ++i) CHECK((*below)[static_cast<size_t>(i)].mount_point == sandbox.path("/m" + std::to_string(i)));
  mount_tmpfs(sandbox.path("/m64"));
  CHECK_FALSE(mounts_below(sandbox.rootfs()));
}

TEST_CASE("A process's device cgroup is the same directory whether its mount is found by id or in mountinfo",
          "[cgroup][mounts]") {
  GRAFT_REQUIRE_MOUNTS();
  GRAFT_SKIP_IF(kernel_skip_reason());
  struct stat devices {};
  if (is_cgroup2("/sys/fs/cgroup") || ::stat("/sys/fs/cgroup/devices", &devices) != 0)
    GRAFT_SKIP("no cgroup v1 devices hierarchy at /sys/fs/cgroup/devices");
  MountSandbox sandbox;
  // Not a mount point, so the kernel is not asked: mountinfo finds the
  // devices hierarchy bound below it.
  const std::string plain = sandbox.path("/plain");
  REQUIRE(::mkdir(plain.c_str(), 0755) == 0);
  REQUIRE(::mkdir((plain + "/devices").c_str(), 0755) == 0);
  REQUIRE(::mount("/sys/fs/cgroup/devices", (plain + "/devices").c_str(), nullptr, MS_BIND, nullptr) == 0);
  REQUIRE_FALSE(mounts_below(plain));

  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  auto by_id = graft::cgroup::find_container_cgroup(child, -1, "/sys/fs/cgroup");
  auto by_mountinfo = graft::cgroup::find_container_cgroup(child, -1, plain);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  REQUIRE(by_id.ok());
  REQUIRE(by_mountinfo.ok());
  CHECK(by_id->path.rfind("/sys/fs/cgroup/devices", 0) == 0);
  CHECK(by_mountinfo->path.rfind(plain + "/devices", 0) == 0);
  struct stat one {}, other {};
  REQUIRE(::fstat(by_id->dir.get(), &one) == 0);
  REQUIRE(::fstat(by_mountinfo->dir.get(), &other) == 0);
  CHECK(one.st_dev == other.st_dev);
  CHECK(one.st_ino == other.st_ino);
}
