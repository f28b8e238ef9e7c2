#include "direct_cache.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

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

// The image's entries, or none (with a debug line) when it has no cache or
// one that does not parse: the image's cache is its own to break.
std::vector<LdCacheEntry> image_entries(const plugin::Host& host, int dir_fd, const std::string& name,
                                        const std::string& shown) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno != ENOENT)
      host.debug(fmt::format("{}: {}: written anew with the injected libraries only", shown, std::strerror(errno)));
    return {};
  }
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
  std::vector<LdCacheEntry> entries;
  for (const auto& path : expected) {
    std::string dir = dir_of(path);
    if (dirs.empty() || (dir != dirs[0] && (dirs.size() < 2 || dir != dirs[1])))
      return make_error("expected cache entry {} lies in none of the action's library directories", path);
    LdCacheAbi abi = dir == dirs[0] ? LdCacheAbi::native : LdCacheAbi::compat32;
    entries.push_back(LdCacheEntry{ldcache_flags_for(abi), name_of(path), path});
  }
  return entries;
}

Status write_cache_directly(const plugin::Host& host, const CacheFile& file, const std::string& cache_path,
                            std::vector<LdCacheEntry> injected) {
  std::string shown = file.root_name + cache_path;
  int dir = host.resolve_in_root(file.root_fd, dir_of(cache_path), O_PATH | O_DIRECTORY);
  if (dir < 0) return make_error("{}: {}", file.root_name + dir_of(cache_path), std::strerror(-dir));
  UniqueFd dir_fd(dir);
  std::string name = name_of(cache_path);
  auto entries = merge_ldcache_entries(std::move(injected), image_entries(host, dir_fd.get(), name, shown));
  return replace_file_at(dir_fd.get(), name, render_ldcache(entries, kGenerator),
                         FileOwner{0644, file.uid, file.gid}, shown);
}

}  // namespace graft::ldcache
