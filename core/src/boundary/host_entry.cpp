// SPDX-License-Identifier: Apache-2.0
#include "boundary/host_entry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "graft/base/unique_fd.hpp"
#include "paths/paths.hpp"

namespace graft {
namespace {

// `host_path` without its root's prefix: "/run/driver/usr/lib" under
// "/run/driver" is "/usr/lib".
Result<std::string> under_root(const std::string& root, const std::string& host_path) {
  std::string prefix = normalize_path(root);
  if (prefix == "/") return normalize_path(host_path);
  std::string path = normalize_path(host_path);
  if (path == prefix) return std::string("/");
  if (!path.starts_with(prefix + "/")) return make_error("{} is not under its root {}", host_path, root);
  return path.substr(prefix.size());
}

Result<std::string> real_path_of(int fd, const std::string& shown) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char target[PATH_MAX];
  ssize_t size = ::readlink(link, target, sizeof target - 1);
  if (size < 0) return make_sys_error(errno, "{}: its real path", shown);
  return std::string(target, static_cast<std::size_t>(size));
}

}  // namespace

Result<HostEntry> resolve_host_entry(const std::string& root, const std::string& host_path) {
  auto path = under_root(root, host_path);
  if (!path) return path.error();
  int opened = open_in_host_root(root, *path, O_PATH);
  if (opened < 0) return make_sys_error(-opened, "{}", host_path);
  UniqueFd fd(opened);
  HostEntry entry;
  if (::fstat(fd.get(), &entry.info) != 0) return make_sys_error(errno, "{}", host_path);
  auto real = real_path_of(fd.get(), host_path);
  if (!real) return real.error();
  char root_real[PATH_MAX];
  if (!::realpath(root.c_str(), root_real)) return make_sys_error(errno, "{}", root);
  std::string prefix = root_real;
  if (prefix == "/") entry.path = *real;
  else if (*real == prefix) entry.path = "/";
  else if (real->starts_with(prefix + "/")) entry.path = real->substr(prefix.size());
  else return make_error("{} resolves to {}, outside its root {}", host_path, *real, root);
  return entry;
}

const char* entry_kind(const struct stat& info) {
  switch (info.st_mode & S_IFMT) {
    case S_IFSOCK: return "a socket";
    case S_IFIFO: return "a FIFO";
    case S_IFDIR: return "a directory";
    case S_IFREG: return "a regular file";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFLNK: return "a symbolic link";
  }
  return "an unknown kind of file";
}

}  // namespace graft
