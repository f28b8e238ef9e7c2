// Trusted files and directory chains for trusted_file.hpp.
#include "files/trusted_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "graft/base/bounded_read.hpp"

namespace graft {
namespace {

bool trusted_owner(uid_t uid) { return uid == 0 || uid == ::geteuid(); }

// One directory on the chain, as fstat saw it through the fd we hold.
Status check_dir(const struct stat& st, const std::string& shown, const std::string& what) {
  if (!trusted_owner(st.st_uid))
    return make_error("{}: directory {} is owned by uid {}, neither root nor us", what, shown,
                      st.st_uid);
  bool writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  bool root_sticky = (st.st_mode & S_ISVTX) != 0 && st.st_uid == 0;
  if (writable && !root_sticky)
    return make_error("{}: its directory {} is group- or world-writable (mode {:o})", what, shown,
                      st.st_mode & 07777);
  return ok_status();
}

// The real path of `path` (symlinks followed once, see the header).
Result<std::string> real_path(const std::string& path, const std::string& what) {
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  if (!real) return make_error("{}: cannot read: {}", what, std::strerror(errno));
  return std::string(real.get());
}

// Walks the real directory `real` from "/", checking each directory.
Result<UniqueFd> walk_dirs(const std::string& real, const std::string& what) {
  UniqueFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (current.get() < 0) return make_error("{}: /: {}", what, std::strerror(errno));
  std::string shown;
  for (std::size_t start = 0;;) {
    struct stat st {};
    if (::fstat(current.get(), &st) != 0)
      return make_error("{}: {}: {}", what, shown.empty() ? "/" : shown, std::strerror(errno));
    if (auto checked = check_dir(st, shown.empty() ? "/" : shown, what); !checked)
      return checked.error();
    while (start < real.size() && real[start] == '/') ++start;
    if (start >= real.size()) return current;
    std::size_t end = std::min(real.find('/', start), real.size());
    std::string name = real.substr(start, end - start);
    start = end;
    shown += "/" + name;
    UniqueFd next(::openat(current.get(), name.c_str(),
                           O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.get() < 0) return make_error("{}: {}: {}", what, shown, std::strerror(errno));
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
  if (!file.valid()) return make_error("{}: cannot read: {}", path, std::strerror(errno));
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
  if (::fstat(fd, &st) != 0) return make_error("{}: {}", what, std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return make_error("{}: not a regular file (symlinks, FIFOs and devices are refused)", what);
  if (!trusted_owner(st.st_uid))
    return make_error("{}: owned by uid {}, neither root nor us", what, st.st_uid);
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
