// SPDX-License-Identifier: Apache-2.0
// Mount namespaces, a tmpfs root, plugin runs and read-back helpers for
// mount_support.hpp.
#include "mount_support.hpp"

#include "fixture_files.hpp"

#include <catch2/catch.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "plugin_host/plugin_loader.hpp"

namespace graft::test {

std::string mount_skip_reason() {
  if (::geteuid() != 0) return "mount tests need root (CAP_SYS_ADMIN, CAP_MKNOD); euid is " +
                               std::to_string(::geteuid());
  return {};
}

MountSandbox::MountSandbox() {
  if (::unshare(CLONE_NEWNS) != 0)
    throw std::runtime_error(std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno));
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    throw std::runtime_error(std::string("make / private: ") + std::strerror(errno));
  if (::mount("graft-rootfs", rootfs().c_str(), "tmpfs", 0, "mode=0755") != 0)
    throw std::runtime_error("mount tmpfs on " + rootfs() + ": " + std::strerror(errno));
  mounted_ = true;
  rootfs_fd_ = ::open(rootfs().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (rootfs_fd_ < 0) throw std::runtime_error("open " + rootfs() + ": " + std::strerror(errno));
}

MountSandbox::~MountSandbox() {
  if (rootfs_fd_ >= 0) ::close(rootfs_fd_);
  // Lazily detaches the root and everything mounted below it, so TempDir
  // removes an empty directory and never walks into a bound host source.
  if (mounted_) ::umount2(rootfs().c_str(), MNT_DETACH);
}

ApplyTarget MountSandbox::target(std::uint32_t uid, std::uint32_t gid) const {
  return ApplyTarget{.container_id = "test",
                     .rootfs_fd = rootfs_fd_,
                     .rootfs = rootfs(),
                     .pid = 0,
                     .uid = uid,
                     .gid = gid};
}

std::unique_ptr<LoadedPlugin> load_mechanism_plugin(const std::string& name) {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, name);
  INFO((loaded ? std::string() : loaded.error().message));
  REQUIRE(loaded.ok());
  return std::move(*loaded);
}

Status run_plugin(LoadedPlugin& plugin, const std::vector<Action>& actions,
                  const ApplyTarget& target) {
  ApplyTarget host_side = target;
  host_side.rootfs_fd = -1;  // prepare runs before graft enters the container
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto status = plugin.prepare(actions[i], i, host_side); !status) return status;
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto status = plugin.apply(actions[i], i, target); !status) return status;
  return plugin.finish(target);
}

unsigned long mount_flags(const std::string& path) {
  struct statvfs info {};
  return ::statvfs(path.c_str(), &info) == 0 ? info.f_flag : 0;
}

int open_errno(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return 0;
  }
  return errno;
}

std::string read_all(const std::string& path) { return fixture::read_file(path); }

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* entry = ::readdir(d)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace graft::test
