// SPDX-License-Identifier: Apache-2.0
// Shared by the mechanism plugin tests (*_plugin_test.cpp): a private mount
// namespace with a fresh tmpfs as the container root, the real plugins
// loaded from the build tree and driven through prepare/apply/finish as the
// hook drives them, and what the tests read back (flags, errno, bytes,
// directory entries). Mounting needs root; without it each test skips with
// a warning saying so.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "plugin_host/loaded_plugin.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

namespace graft::test {

// Why mount tests cannot run here ("" when they can).
std::string mount_skip_reason();

// In a test case: skip (skip.hpp) unless mounts can be made.
#define GRAFT_REQUIRE_MOUNTS() GRAFT_SKIP_IF(::graft::test::mount_skip_reason())

// Enters a new private mount namespace (this process is single-threaded and
// ctest runs every test case in its own process, so nothing leaks out) and
// mounts a tmpfs as the container root. Destruction detaches the whole tree.
class MountSandbox {
 public:
  MountSandbox();
  ~MountSandbox();
  MountSandbox(const MountSandbox&) = delete;
  MountSandbox& operator=(const MountSandbox&) = delete;

  const std::string& rootfs() const { return rootfs_.path(); }
  // rootfs() + container path ("/dev/nvidia1").
  std::string path(std::string_view inside) const { return rootfs() + std::string(inside); }
  // What apply gets: the root fd and the container owner.
  ApplyTarget target(std::uint32_t uid = 0, std::uint32_t gid = 0) const;

 private:
  fixture::TempDir rootfs_{"graft-rootfs-"};
  int rootfs_fd_ = -1;
  bool mounted_ = false;
};

// lib<name>.so from the build tree's plugin directory; REQUIREs success.
std::unique_ptr<LoadedPlugin> load_mechanism_plugin(const std::string& name);

// prepare every action (host side: no root fd), apply every action, finish:
// the hook's order. The first failure is returned.
Status run_plugin(LoadedPlugin& plugin, const std::vector<Action>& actions,
                  const ApplyTarget& target);

// statvfs(path).f_flag, or 0 when statvfs fails.
unsigned long mount_flags(const std::string& path);

// errno of open(path, flags), 0 when it opened.
int open_errno(const std::string& path, int flags);

// The file's bytes ("" when it cannot be read).
std::string read_all(const std::string& path);

// The names in dir without "." and "..", sorted (none when it cannot be read).
std::vector<std::string> entries(const std::string& dir);

}  // namespace graft::test
