// SPDX-License-Identifier: Apache-2.0
// Trusted files and directory chains for trusted_file.hpp.
#include "trust/trusted_file.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "trust/user_namespace.hpp"
#include "graft/base/bounded_read.hpp"

namespace graft {
namespace {

// Whether the owner of `fd` (not root, not us, shown as the overflow uid)
// is mapped into graft's user namespace: opening with O_NOATIME is allowed to
// the owner and, holding CAP_FOWNER in this namespace, to anyone here for a
// file whose owner it maps, and to nobody else (EPERM). Nothing is changed.
// None when the kernel cannot tell us (no CAP_FOWNER, or the file not readable).
std::optional<bool> owner_is_mapped(int fd, bool directory) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct caps[2]{};
  if (::syscall(SYS_capget, &header, caps) != 0 || (caps[0].effective & (1u << CAP_FOWNER)) == 0)
    return std::nullopt;
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  int flags = O_RDONLY | O_NOATIME | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (directory ? O_DIRECTORY : 0);
  UniqueFd probe(::open(path.c_str(), flags));
  if (probe.valid()) return true;
  if (errno == EPERM) return false;
  return std::nullopt;
}

// The owner of `fd` (as fstat saw it in `st`) for graft's trust
// (user_namespace.hpp); an overflow owner still `overflow` is one the
// kernel could not settle.
OwnerKind owner_of(int fd, const struct stat& st) {
  // Root in any namespace: the common case costs no read of /proc.
  if (st.st_uid == 0) return OwnerKind::root;
  const UserNamespaceView& view = own_user_namespace();
  OwnerKind kind = classify_owner(st.st_uid, view);
  if (kind != OwnerKind::overflow) return kind;
  auto mapped = owner_is_mapped(fd, S_ISDIR(st.st_mode));
  return mapped ? settle_overflow(*mapped, view) : OwnerKind::overflow;
}

bool trusted_owner(OwnerKind kind) {
  return kind == OwnerKind::root || kind == OwnerKind::us || kind == OwnerKind::unmapped;
}

// Why an owner of kind `kind` (not trusted) is refused, after "owned by uid N".
std::string owner_refusal(OwnerKind kind) {
  if (kind == OwnerKind::overflow)
    return ", the overflow uid, which this user namespace also maps: graft cannot tell whether "
           "someone inside it owns the file (that takes CAP_FOWNER here and a readable file)";
  if (own_user_namespace().uids.is_initial()) return ", neither root nor us";
  return ", neither root nor us nor an owner outside this user namespace that may be host root";
}

// One directory on the chain, as fstat saw it through the fd we hold.
Status check_dir(int fd, const struct stat& st, const std::string& shown, const std::string& what) {
  OwnerKind owner = owner_of(fd, st);
  if (!trusted_owner(owner))
    return make_error("{}: directory {} is owned by uid {}{}", what, shown, st.st_uid,
                      owner_refusal(owner));
  bool writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  bool root_owned = owner == OwnerKind::root || owner == OwnerKind::unmapped;  // may be host root
  bool root_sticky = (st.st_mode & S_ISVTX) != 0 && root_owned;
  if (writable && !root_sticky)
    return make_error("{}: its directory {} is group- or world-writable (mode {:o})", what, shown,
                      st.st_mode & 07777);
  return ok_status();
}

// The real path of `path` (symlinks followed once, see the header).
Result<std::string> real_path(const std::string& path, const std::string& what) {
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  if (!real) return make_sys_error(errno, "{}: cannot read", what);
  return std::string(real.get());
}

// Walks the real directory `real` from "/", checking each directory.
Result<UniqueFd> walk_dirs(const std::string& real, const std::string& what) {
  UniqueFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (current.get() < 0) return make_sys_error(errno, "{}: /", what);
  std::string shown;
  for (std::size_t start = 0;;) {
    struct stat st {};
    if (::fstat(current.get(), &st) != 0)
      return make_sys_error(errno, "{}: {}", what, shown.empty() ? "/" : shown);
    if (auto checked = check_dir(current.get(), st, shown.empty() ? "/" : shown, what); !checked)
      return checked.error();
    while (start < real.size() && real[start] == '/') ++start;
    if (start >= real.size()) return current;
    std::size_t end = std::min(real.find('/', start), real.size());
    std::string name = real.substr(start, end - start);
    start = end;
    shown += "/" + name;
    UniqueFd next(::openat(current.get(), name.c_str(),
                           O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.get() < 0) return make_sys_error(errno, "{}: {}", what, shown);
    current = std::move(next);
  }
}

// The file `name` in the checked directory `dir_fd`, a final symlink not
// followed (ELOOP). O_NONBLOCK: a FIFO opens at once (and is refused by
// checked_file) instead of waiting for a writer.
UniqueFd open_in_checked_dir(int dir_fd, const std::string& name) {
  return UniqueFd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
}

// `file` as opened by open_in_checked_dir, checked; errno says why it is not open.
Result<UniqueFd> checked_file(UniqueFd file, const std::string& path) {
  if (!file.valid()) return make_sys_error(errno, "{}: cannot read", path);
  if (auto checked = check_trusted_file(file.get(), path); !checked) return checked.error();
  return file;
}

}  // namespace

Result<UniqueFd> open_trusted_dir(const std::string& dir, const std::string& what) {
  auto real = real_path(dir, what);
  if (!real) return real.error();
  return walk_dirs(*real, what);
}

Status check_trusted_file(int fd, const std::string& what) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return make_sys_error(errno, "{}", what);
  if (!S_ISREG(st.st_mode))
    return make_error("{}: not a regular file (symlinks, FIFOs and devices are refused)", what);
  if (OwnerKind owner = owner_of(fd, st); !trusted_owner(owner))
    return make_error("{}: owned by uid {}{}", what, st.st_uid, owner_refusal(owner));
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return make_error("{}: the file is group- or world-writable (mode {:o})", what,
                      st.st_mode & 07777);
  return ok_status();
}

Result<UniqueFd> open_trusted_file(const std::string& path) {
  auto real = real_path(path, path);
  if (!real) return real.error();
  std::size_t slash = real->rfind('/');
  auto dir = walk_dirs(slash == 0 ? "/" : real->substr(0, slash), path);
  if (!dir) return dir.error();
  return checked_file(open_in_checked_dir(dir->get(), real->substr(slash + 1)), path);
}

Result<std::string> read_trusted_file(const std::string& path, std::size_t limit) {
  auto file = open_trusted_file(path);
  if (!file) return file.error();
  return read_bounded(file->get(), limit, path);
}

Result<int> TrustedDirs::open(const std::string& dir, const std::string& what) {
  auto found = checked_.find(dir);
  if (found != checked_.end()) return found->second.get();
  auto opened = open_trusted_dir(dir, what);
  if (!opened) return opened.error();
  return checked_.emplace(dir, std::move(*opened)).first->second.get();
}

Result<std::string> read_trusted_file(const std::string& path, TrustedDirs& dirs, std::size_t limit) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return read_trusted_file(path, limit);
  auto dir = dirs.open(slash == 0 ? "/" : path.substr(0, slash), path);
  if (!dir) return dir.error();
  UniqueFd opened = open_in_checked_dir(*dir, path.substr(slash + 1));
  // A symlinked file is resolved and its own chain walked, as read_trusted_file does.
  if (!opened.valid() && errno == ELOOP) return read_trusted_file(path, limit);
  auto file = checked_file(std::move(opened), path);
  if (!file) return file.error();
  return read_bounded(file->get(), limit, path);
}

}  // namespace graft
