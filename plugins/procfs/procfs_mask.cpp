// SPDX-License-Identifier: Apache-2.0
// Reading, rewriting and building the mask for procfs_mask.hpp.
#include "procfs_mask.hpp"

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "detached_mount.hpp"
#include "graft/base/bounded_read.hpp"
#include "sys_error.hpp"

namespace graft::plugin {
namespace {

Status check_file_name(const std::string& name, const graft_action& action) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
    return make_error("{}: mask file '{}' is not a plain file name", action.target, name);
  return ok_status();
}

Result<std::string> read_regular(int fd, const std::string& shown) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return sys_error("fstat", shown, errno);
  if (!S_ISREG(st.st_mode)) return make_error("{} is not a regular file", shown);
  // procfs sizes are 0, so the cap, not fstat's size, bounds the read.
  return read_bounded(fd, kMaskFileLimit, shown);
}

struct TmpfsSettings {
  std::vector<std::pair<std::string, std::string>> parameters;
  std::uint64_t attributes = 0;
};

Result<TmpfsSettings> tmpfs_settings(const graft_action& action, size_t bytes) {
  TmpfsSettings settings;
  std::string size = fmt::format("{}k", std::max<size_t>(1024, bytes / 1024 * 2 + 256));
  for (const char* const* option = action.options; option && *option; ++option) {
    std::string_view word = *option;
    if (word.starts_with("mode="))
      settings.parameters.emplace_back("mode", std::string(word.substr(5)));
    else if (word.starts_with("size="))
      size = std::string(word.substr(5));
    else if (word == "nosuid")
      settings.attributes |= MOUNT_ATTR_NOSUID;
    else if (word == "nodev")
      settings.attributes |= MOUNT_ATTR_NODEV;
    else if (word == "noexec")
      settings.attributes |= MOUNT_ATTR_NOEXEC;
    else
      return make_error("{}: unsupported procfs_mask option '{}'", action.target, word);
  }
  settings.parameters.emplace_back("size", size);
  return settings;
}

Status write_copy(int tmpfs_fd, const MaskFile& file, const std::string& shown) {
  UniqueFd out(::openat(tmpfs_fd, file.name.c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444));
  if (!out.valid()) return sys_error("create", shown, errno);
  std::string_view rest = file.content;
  while (!rest.empty()) {
    ssize_t written = ::write(out.get(), rest.data(), rest.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return sys_error("write", shown, written < 0 ? errno : EIO);
    rest.remove_prefix(static_cast<size_t>(written));
  }
  if (::fchmod(out.get(), 0444) != 0) return sys_error("fchmod", shown, errno);
  return ok_status();
}

}  // namespace

Result<std::vector<MaskFile>> read_mask_files(const graft_action& action,
                                              std::vector<std::string>& missing) {
  UniqueFd dir(::open(action.source, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return sys_error("open", action.source, errno);
  std::vector<MaskFile> files;
  for (const char* const* path = action.paths; path && *path; ++path) {
    std::string name = *path;
    if (auto status = check_file_name(name, action); !status) return status.error();
    std::string shown = std::string(action.source) + "/" + name;
    // O_NONBLOCK: a FIFO planted in place of a file must not hang the hook.
    UniqueFd file(
        ::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!file.valid() && errno == ENOENT) {
      missing.push_back(name);
      continue;
    }
    if (!file.valid()) return sys_error("open", shown, errno);
    auto content = read_regular(file.get(), shown);
    if (!content) return content.error();
    files.push_back({name, std::move(*content)});
  }
  return files;
}

Result<Rewrite> parse_rewrite(std::string_view text) {
  size_t colon = text.find(": ");
  size_t arrow = colon == std::string_view::npos ? colon : text.find(" => ", colon + 2);
  if (arrow == std::string_view::npos)
    return make_error("rewrite '{}' is not 'FILE: FROM => TO'", text);
  Rewrite rewrite{std::string(text.substr(0, colon)),
                  std::string(text.substr(colon + 2, arrow - colon - 2)),
                  std::string(text.substr(arrow + 4))};
  if (rewrite.file.empty() || rewrite.from.empty())
    return make_error("rewrite '{}' has an empty FILE or FROM", text);
  return rewrite;
}

size_t apply_rewrite(std::string& content, const Rewrite& rewrite) {
  size_t count = 0;
  for (size_t at = content.find(rewrite.from); at != std::string::npos;
       at = content.find(rewrite.from, at + rewrite.to.size())) {
    content.replace(at, rewrite.from.size(), rewrite.to);
    ++count;
  }
  return count;
}

Status apply_rewrites(const graft_action& action, std::vector<MaskFile>& files) {
  for (const char* const* text = action.rewrites; text && *text; ++text) {
    auto rewrite = parse_rewrite(*text);
    if (!rewrite) return rewrite.error().context(action.target);
    bool copied = false;
    for (const char* const* path = action.paths; path && *path; ++path)
      copied = copied || rewrite->file == *path;
    if (!copied)
      return make_error("{}: rewrite names '{}', which the mask does not copy", action.target,
                        rewrite->file);
    for (auto& file : files)
      if (file.name == rewrite->file) apply_rewrite(file.content, *rewrite);
  }
  return ok_status();
}

Result<UniqueFd> build_mask(const graft_action& action, const std::vector<MaskFile>& files) {
  size_t bytes = 0;
  for (const auto& file : files) bytes += file.content.size();
  auto settings = tmpfs_settings(action, bytes);
  if (!settings) return settings.error();
  auto tmpfs = make_tmpfs(settings->parameters, settings->attributes, action.target);
  if (!tmpfs) return tmpfs;
  for (const auto& file : files)
    if (auto status = write_copy(tmpfs->get(), file, std::string(action.target) + "/" + file.name);
        !status)
      return status.error();
  return tmpfs;
}

}  // namespace graft::plugin
