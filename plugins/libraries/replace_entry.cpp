// SPDX-License-Identifier: Apache-2.0
// Atomic symlinks and files for replace_entry.hpp.
#include "replace_entry.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "graft/base/unique_fd.hpp"
#include "sys_error.hpp"

namespace graft::plugin {
namespace {

// Unique within this process and directory: pid plus a counter. Dotted so
// a listing of the half-done directory does not show it as a library.
std::string temporary_name() {
  static unsigned counter = 0;
  return fmt::format(".graft-tmp-{}-{}", ::getpid(), ++counter);
}

// Whether `name` exists; a directory there is refused, never replaced.
Result<bool> replaceable_entry(int parent_fd, const std::string& name, const std::string& shown) {
  struct stat st {};
  if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return false;
    return sys_error("fstatat", shown, errno);
  }
  if (S_ISDIR(st.st_mode)) return make_error("{} exists and is a directory, not replacing it", shown);
  return true;
}

// Gives the symlink `name` to the container's owner; on failure it is removed.
Status own_symlink(int parent_fd, const std::string& name, Owner owner, const std::string& shown) {
  if (::fchownat(parent_fd, name.c_str(), owner.uid, owner.gid, AT_SYMLINK_NOFOLLOW) == 0)
    return ok_status();
  int err = errno;
  ::unlinkat(parent_fd, name.c_str(), 0);
  return sys_error("fchownat", shown, err);
}

// Renames `temp` over `name`; on failure the temporary entry is removed.
Status rename_into_place(int parent_fd, const std::string& temp, const std::string& name,
                         const std::string& shown) {
  if (::renameat(parent_fd, temp.c_str(), parent_fd, name.c_str()) == 0) return ok_status();
  int err = errno;
  ::unlinkat(parent_fd, temp.c_str(), 0);
  return sys_error("renameat", shown, err);
}

Status write_all(int fd, std::string_view content, const std::string& shown) {
  while (!content.empty()) {
    ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return sys_error("write", shown, written < 0 ? errno : EIO);
    content.remove_prefix(static_cast<size_t>(written));
  }
  return ok_status();
}

Status fill_temporary(int parent_fd, const std::string& temp, std::string_view content,
                      Owner owner, const std::string& shown) {
  UniqueFd file(::openat(parent_fd, temp.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!file.valid()) return sys_error("create", shown, errno);
  if (::fchown(file.get(), owner.uid, owner.gid) != 0) return sys_error("fchown", shown, errno);
  if (::fchmod(file.get(), 0644) != 0) return sys_error("fchmod", shown, errno);
  return write_all(file.get(), content, shown);
}

}  // namespace

Status replace_with_symlink(const RootFs& root, const std::string& path, const std::string& value) {
  if (value.empty()) return make_error("{}: empty symlink value", path);
  auto parent = root.open_parent(path);
  if (!parent) return parent.error();
  std::string name = leaf_name(path);
  auto exists = replaceable_entry(parent->get(), name, path);
  if (!exists) return exists.error();
  // A symlink is made whole by one call, so where nothing is in the way it is
  // made at its name; an entry that appeared since is replaced as below.
  if (!*exists) {
    if (::symlinkat(value.c_str(), parent->get(), name.c_str()) == 0)
      return own_symlink(parent->get(), name, root.owner(), path);
    if (errno != EEXIST) return sys_error("symlinkat", path, errno);
  }
  std::string temp = temporary_name();
  if (::symlinkat(value.c_str(), parent->get(), temp.c_str()) != 0)
    return sys_error("symlinkat", path, errno);
  if (auto owned = own_symlink(parent->get(), temp, root.owner(), path); !owned) return owned;
  return rename_into_place(parent->get(), temp, name, path);
}

Status replace_with_file(const RootFs& root, const std::string& path, std::string_view content) {
  auto parent = root.open_parent(path);
  if (!parent) return parent.error();
  std::string name = leaf_name(path);
  if (auto exists = replaceable_entry(parent->get(), name, path); !exists) return exists.error();
  std::string temp = temporary_name();
  if (auto status = fill_temporary(parent->get(), temp, content, root.owner(), path); !status) {
    ::unlinkat(parent->get(), temp.c_str(), 0);
    return status;
  }
  return rename_into_place(parent->get(), temp, name, path);
}

}  // namespace graft::plugin
