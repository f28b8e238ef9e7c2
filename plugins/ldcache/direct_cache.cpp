// SPDX-License-Identifier: Apache-2.0
#include "direct_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "cache_check.hpp"
#include "graft/base/ldcache_write.hpp"
#include "graft/base/replace_file.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::ldcache {
namespace {

constexpr const char* kGenerator = "graft (ldcache plugin, written without ldconfig)";

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// The image's cache, opened for reading only once it is known to be a
// regular file: an image may put a device node at the name, and opening
// some devices has effects (a watchdog reboots the node). O_PATH opens
// nothing; reopen_checked then opens that very inode. -errno when it is not
// a regular file or cannot be opened.
int open_image_cache(int dir_fd, const std::string& name, int own_fds) {
  UniqueFd path_fd(::openat(dir_fd, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (!path_fd.valid()) return -errno;
  struct stat st {};
  if (::fstat(path_fd.get(), &st) != 0) return -errno;
  if (!S_ISREG(st.st_mode)) return -EINVAL;
  return reopen_checked(own_fds, path_fd.get());
}

// The image's entries, or none (with a debug line) when it has no cache or
// one that is not a regular file or does not parse: the image's cache is
// its own to break.
std::vector<LdCacheEntry> image_entries(const plugin::Host& host, const CacheFile& file, int dir_fd,
                                        const std::string& name, const std::string& shown) {
  int opened = open_image_cache(dir_fd, name, file.own_fds);
  if (opened < 0) {
    if (opened == -EINVAL)
      host.debug(fmt::format("{}: not a regular file: written anew with the injected libraries only", shown));
    else if (opened != -ENOENT)
      host.debug(fmt::format("{}: {}: written anew with the injected libraries only", shown, std::strerror(-opened)));
    return {};
  }
  UniqueFd fd(opened);
  auto entries = read_ldcache_fd(fd.get(), shown);
  if (entries) return std::move(*entries);
  host.debug(fmt::format("{}; written anew with the injected libraries only", entries.error().message));
  return {};
}

}  // namespace

Result<std::vector<LdCacheEntry>> injected_entries(const graft_action& action,
                                                   const std::vector<std::string>& expected) {
  std::vector<std::string> dirs;
  for (const char* const* path = action.paths; path != nullptr && *path != nullptr; ++path) dirs.emplace_back(*path);
  if (dirs.empty()) return make_error("the action names no library directory");
  std::vector<LdCacheEntry> entries;
  bool in_library_dirs = false;
  for (const auto& path : expected) {
    std::string dir = dir_of(path);
    bool library_dir = dir == dirs[0] || (dirs.size() > 1 && dir == dirs[1]);
    // A preferred directory's entries (preferred_dirs) come first, so they
    // win over the injected ones of the same soname.
    if (!library_dir && in_library_dirs)
      return make_error("expected cache entry {} lies in none of the action's library directories "
                        "and does not come before their entries", path);
    in_library_dirs = in_library_dirs || library_dir;
    LdCacheAbi abi = !library_dir || dir == dirs[0] ? LdCacheAbi::native : LdCacheAbi::compat32;
    entries.push_back(LdCacheEntry{ldcache_flags_for(abi), name_of(path), path});
  }
  return entries;
}

Status write_cache_directly(const plugin::Host& host, const CacheFile& file, const std::string& cache_path,
                            std::vector<LdCacheEntry> injected) {
  std::string shown = file.root_name + cache_path;
  std::string name = name_of(cache_path);
  auto entries = merge_ldcache_entries(std::move(injected), image_entries(host, file, file.dir_fd, name, shown));
  return replace_file_at(file.dir_fd, name, render_ldcache(entries, kGenerator),
                         FileOwner{0644, file.uid, file.gid}, shown);
}

}  // namespace graft::ldcache
