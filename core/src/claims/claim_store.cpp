// SPDX-License-Identifier: Apache-2.0
// Claim files under one flock (claim_store.hpp).
#include "claims/claim_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "graft/base/bounded_read.hpp"
#include "graft/base/unique_fd.hpp"
#include "paths/dir_listing.hpp"

namespace graft {
namespace {

constexpr std::size_t kClaimLimit = 4096;  // a claim is three short lines
constexpr std::size_t kEntryLimit = 65536;  // claims in one state directory

// mkdir -p, 0700; an existing directory is checked by the caller.
Status make_dirs(const std::string& dir) {
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    std::string part = dir.substr(0, slash);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
      return make_sys_error(errno, "exclusive GPUs: cannot make {}", part);
    if (slash == std::string::npos) return ok_status();
  }
}

Result<UniqueFd> open_state_dir(const std::string& dir) {
  if (auto made = make_dirs(dir); !made) return made.error();
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return make_sys_error(errno, "exclusive GPUs: cannot open {}", dir);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return make_sys_error(errno, "exclusive GPUs: {}", dir);
  if (st.st_uid != ::geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return make_error("exclusive GPUs: {} is not graft's own (owner {}, mode {:o}); another user could forge claims",
                      dir, st.st_uid, st.st_mode & 07777);
  if (::flock(fd.get(), LOCK_EX) != 0) return make_sys_error(errno, "exclusive GPUs: cannot lock {}", dir);
  return fd;
}

// A claim file's holder; nullopt for a file that is not a claim (left by
// something else, or cut short), which then counts as stale.
std::optional<Holder> read_claim(int dir_fd, const std::string& name) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  auto text = read_bounded(fd.get(), kClaimLimit, name);
  if (!text) return std::nullopt;
  auto holder = parse_claim(*text);
  if (!holder) return std::nullopt;
  return std::move(*holder);
}

Status write_claim(int dir_fd, const std::string& dir, const std::string& file, const Holder& me) {
  std::string temporary = ".new-" + file;
  ::unlinkat(dir_fd, temporary.c_str(), 0);  // a crashed writer's leftover
  UniqueFd fd(::openat(dir_fd, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) return make_sys_error(errno, "exclusive GPUs: cannot write {}/{}", dir, temporary);
  std::string text = claim_text(me);
  if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    return make_sys_error(errno ? errno : EIO, "exclusive GPUs: cannot write {}/{}", dir, temporary);
  if (::renameat(dir_fd, temporary.c_str(), dir_fd, file.c_str()) != 0)
    return make_sys_error(errno, "exclusive GPUs: cannot rename {}/{} to {}", dir, temporary, file);
  return ok_status();
}

}  // namespace

Result<std::optional<ClaimConflict>> claim_devices(const std::string& state_dir,
                                                   const std::vector<ClaimKey>& keys, const Holder& me,
                                                   const HolderAlive& alive) {
  auto dir = open_state_dir(state_dir);
  if (!dir) return dir.error();
  auto listing = list_directory(dir->get(), kEntryLimit, state_dir);
  if (!listing) return listing.error();
  if (listing->truncated) return make_error("exclusive GPUs: {} holds more than {} entries", state_dir, kEntryLimit);
  std::vector<std::string> stale;
  for (const auto& key : keys) {
    for (const auto& name : listing->names) {
      if (name.starts_with('.') || !claims_conflict(key, name)) continue;
      auto holder = read_claim(dir->get(), name);
      if (holder && holder->container_id != me.container_id && alive(*holder))
        return std::optional<ClaimConflict>(ClaimConflict{key, *holder});
      stale.push_back(name);
    }
  }
  for (const auto& name : stale) ::unlinkat(dir->get(), name.c_str(), 0);
  for (const auto& key : keys)
    if (auto written = write_claim(dir->get(), state_dir, key.file, me); !written) return written.error();
  return std::optional<ClaimConflict>();
}

Result<std::uint64_t> process_start_time(int pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/stat";
  auto text = read_file(path, kClaimLimit);
  if (!text) return text.error();
  auto start = stat_start_time(*text);
  if (!start) return start.error().context(path);
  return start;
}

bool holder_alive(const Holder& holder) {
  auto start = process_start_time(holder.pid);
  return start && *start == holder.start_time;
}

}  // namespace graft
