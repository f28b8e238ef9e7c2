// SPDX-License-Identifier: Apache-2.0
// Opening, and where none is mounted mounting, the bpf filesystem that
// keeps cgroup v2 device filters reachable (bpf_filesystem.hpp says why).
#include "bpf_filesystem.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/statfs.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace graft::cgroup {

namespace {

bool is_bpf_filesystem(int fd) {
  struct statfs fs {};
  return ::fstatfs(fd, &fs) == 0 && static_cast<unsigned long>(fs.f_type) == BPF_FS_MAGIC;
}

Result<UniqueFd> open_directory(const std::string& path, int flags) {
  UniqueFd dir(::open(path.c_str(), flags | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return make_sys_error(errno, "{}", path);
  return dir;
}

// Mounts a bpf filesystem on `path` unless one is there by the time the
// lock on the directory below is held (another hook mounted it first).
Status mount_bpf_filesystem(const std::string& path, const std::function<void(const std::string&)>& mounted) {
  auto below = open_directory(path, O_RDONLY);
  if (!below.ok()) return below.error();
  if (::flock(below->get(), LOCK_EX) != 0)
    return make_sys_error(errno, "lock {}", path);
  auto now = open_directory(path, O_PATH);
  if (now.ok() && is_bpf_filesystem(now->get())) return ok_status();
  if (::mount("bpf", path.c_str(), "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") != 0)
    return make_error("{} is not a bpf filesystem, and mounting one there failed: {} "
                      "(mount -t bpf bpf {})",
                      path, std::strerror(errno), path);
  mounted(fmt::format("mounted a bpf filesystem on {}: none was mounted there (systemd mounts one "
                      "at boot), and cgroup v2 device rules are pinned in it",
                      path));
  return ok_status();
}

}  // namespace

Result<UniqueFd> open_bpf_filesystem(const std::string& path, bool may_mount,
                                     const std::function<void(const std::string&)>& mounted) {
  auto dir = open_directory(path, O_PATH);
  if (!dir.ok()) return dir.error();
  if (is_bpf_filesystem(dir->get())) return dir;
  if (!may_mount)
    return make_error("{} is not a bpf filesystem (mount -t bpf bpf {}, or let the cgroup plugin "
                      "mount it: mount_bpffs = \"auto\")",
                      path, path);
  if (auto mounted_now = mount_bpf_filesystem(path, mounted); !mounted_now.ok()) return mounted_now.error();
  dir = open_directory(path, O_PATH);
  if (!dir.ok()) return dir.error();
  if (!is_bpf_filesystem(dir->get())) return make_error("{}: still no bpf filesystem after mounting one", path);
  return dir;
}

}  // namespace graft::cgroup
