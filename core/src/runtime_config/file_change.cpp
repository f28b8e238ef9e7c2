// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/file_change.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "graft/base/bounded_read.hpp"
#include "graft/base/replace_file.hpp"

namespace graft::runtime_config {
namespace {

constexpr std::size_t kConfigFileLimit = 1 << 20;

// The file an admin's symlink leads to, which must exist and be regular.
Result<std::string> symlink_target(const std::string& path) {
  std::error_code error;
  auto target = std::filesystem::canonical(path, error);
  if (error) return make_error("{}: a symlink that leads nowhere usable: {}", path, error.message());
  return target.string();
}

}  // namespace

Result<FileChange> read_config_file(const std::string& path, FileOwnerKind owner) {
  FileChange change{path, path, std::nullopt, std::nullopt, owner};
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return change;
    return make_sys_error(errno, "{}", path);
  }
  if (S_ISLNK(info.st_mode)) {
    if (owner == FileOwnerKind::graft)
      return make_error("{}: a symlink where graft writes its own file; remove it or give --config", path);
    auto target = symlink_target(path);
    if (!target) return target.error();
    change.path = *target;
    change.shown = path + " -> " + *target;
    if (::stat(change.path.c_str(), &info) != 0) return make_sys_error(errno, "{}", change.shown);
  }
  if (!S_ISREG(info.st_mode)) return make_error("{}: not a regular file", change.shown);
  auto text = read_file(change.path, kConfigFileLimit, O_NOFOLLOW);
  if (!text) return text.error();
  change.before = std::move(*text);
  change.after = change.before;
  return change;
}

Status apply_change(const FileChange& change) {
  if (!change.changes()) return ok_status();
  if (!change.after) {
    if (::unlink(change.path.c_str()) != 0 && errno != ENOENT)
      return make_sys_error(errno, "{}: cannot remove", change.shown);
    return ok_status();
  }
  auto dir = std::filesystem::path(change.path).parent_path();
  std::error_code error;
  if (!dir.empty() && !std::filesystem::exists(dir, error)) {
    std::filesystem::create_directories(dir, error);
    if (error) return make_error("{}: cannot create {}: {}", change.shown, dir.string(), error.message());
  }
  if (change.owner == FileOwnerKind::graft) return replace_file(change.path, *change.after);
  return replace_file_keeping_owner(change.path, *change.after);
}

}  // namespace graft::runtime_config
