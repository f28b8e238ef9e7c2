// SPDX-License-Identifier: Apache-2.0
// StagedFile: the new file created exclusively beside the name, owned and
// filled, renamed over it by commit() or removed.
#include "graft/base/staged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace graft {
namespace {

// The owner the new file takes: the one asked for, or the old file's.
Result<std::optional<FileOwner>> owner_for(int dir_fd, const std::string& name,
                                           const std::optional<FileOwner>& owner, const std::string& shown) {
  if (owner) return owner;
  struct stat old {};
  if (::fstatat(dir_fd, name.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0)
    return std::optional<FileOwner>(FileOwner{static_cast<mode_t>(old.st_mode & 07777), old.st_uid, old.st_gid});
  if (errno != ENOENT) return make_sys_error(errno, "{}", shown);
  return std::optional<FileOwner>();
}

Status fill(int fd, std::string_view text, const std::optional<FileOwner>& owner, const std::string& shown,
            WriteCall write_call) {
  if (auto status = write_all(fd, text, shown, write_call); !status) return status;
  if (!owner) return ok_status();
  if (::fchown(fd, owner->uid, owner->gid) != 0) return make_sys_error(errno, "{}: chown", shown);
  if (::fchmod(fd, owner->mode) != 0) return make_sys_error(errno, "{}: chmod", shown);
  return ok_status();
}

// A new file beside `name`, created exclusively (O_EXCL|O_NOFOLLOW): nothing
// planted under a guessed name is opened. It is `mode` while it is written.
Result<std::pair<UniqueFd, std::string>> create_beside(int dir_fd, const std::string& name, mode_t mode,
                                                       const std::string& shown) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temporary = fmt::format(".{}.graft-{}-{}", name, ::getpid(), attempt);
    UniqueFd fd(::openat(dir_fd, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (fd.valid()) return std::pair{std::move(fd), temporary};
    if (errno != EEXIST) return make_sys_error(errno, "{}: cannot create a file beside it", shown);
  }
  return make_error("{}: no free name beside it", shown);
}

// `path`'s directory, opened, and its last component.
struct Parent {
  UniqueFd dir;
  std::string name;
};

Result<Parent> open_parent(const std::string& path) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  UniqueFd dir_fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) return make_sys_error(errno, "{}: cannot create: {}", path, dir);
  return Parent{std::move(dir_fd), std::move(name)};
}

// A link where graft writes its own file was put there by someone meaning
// the file to live elsewhere (or to be something else): neither following
// it nor silently replacing it is graft's call. The rename would replace a
// link planted after this check, never write through it.
Status refuse_symlink(int dir_fd, const std::string& name, const std::string& shown) {
  struct stat st {};
  if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? ok_status() : make_sys_error(errno, "{}", shown);
  if (S_ISLNK(st.st_mode))
    return make_error("{}: is a symlink; graft writes this file itself and does not follow or replace a link "
                      "there (remove it, or name the file it leads to)", shown);
  return ok_status();
}

}  // namespace

Result<StagedFile> StagedFile::create(int dir_fd, const std::string& name, std::string_view text,
                                      const std::optional<FileOwner>& owner, const std::string& shown,
                                      WriteCall write_call) {
  auto final_owner = owner_for(dir_fd, name, owner, shown);
  if (!final_owner) return final_owner.error();
  UniqueFd dir(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) return make_sys_error(errno, "{}", shown);
  // Owner's only until its contents are whole: the old file (a config.json
  // of 0600) may be readable by fewer than 0644 would let in. A new file
  // with no owner to copy is 0644 and the caller's umask from the start.
  auto created = create_beside(dir_fd, name, *final_owner ? 0600 : 0644, shown);
  if (!created) return created.error();
  auto& [fd, temporary] = *created;
  StagedFile staged(std::move(dir), name, temporary, shown);
  Status done = fill(fd.get(), text, *final_owner, shown, write_call);
  if (done && ::close(fd.release()) != 0) done = make_sys_error(errno, "{}: close", shown);
  if (!done) return done.error();  // `staged` removes the file
  return staged;
}

Result<StagedFile> StagedFile::create(const std::string& path, std::string_view text) {
  auto at = open_parent(path);
  if (!at) return at.error();
  if (auto refused = refuse_symlink(at->dir.get(), at->name, path); !refused) return refused.error();
  return create(at->dir.get(), at->name, text, own_file_owner(), path);
}

Result<StagedFile> StagedFile::create_keeping_owner(const std::string& path, std::string_view text) {
  auto at = open_parent(path);
  if (!at) return at.error();
  return create(at->dir.get(), at->name, text, std::nullopt, path);
}

StagedFile::StagedFile(UniqueFd dir, std::string name, std::string temporary, std::string shown)
    : dir_(std::move(dir)), name_(std::move(name)), temporary_(std::move(temporary)), shown_(std::move(shown)) {}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : dir_(std::move(other.dir_)),
      name_(std::move(other.name_)),
      temporary_(std::move(other.temporary_)),
      shown_(std::move(other.shown_)),
      pending_(std::exchange(other.pending_, false)) {}

StagedFile::~StagedFile() {
  if (pending_) ::unlinkat(dir_.get(), temporary_.c_str(), 0);
}

Status StagedFile::commit() {
  if (::renameat(dir_.get(), temporary_.c_str(), dir_.get(), name_.c_str()) != 0)
    return make_sys_error(errno, "{}: cannot replace", shown_);
  pending_ = false;
  return ok_status();
}

}  // namespace graft
