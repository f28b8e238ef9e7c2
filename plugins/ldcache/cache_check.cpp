// SPDX-License-Identifier: Apache-2.0
// Checks a freshly written ld.so.cache inside a container root, reading it
// with graft_base's bounds-checked parser through an fd from
// resolve_in_root.
#include "cache_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "graft/base/bounded_read.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::ldcache {
namespace {

// An fd for `path` inside the root, which must lead to a regular file.
Result<UniqueFd> open_regular(const plugin::Host& host, int root_fd, const std::string& path,
                              int flags, const std::string& root_name, const std::string& when) {
  int opened = host.resolve_in_root(root_fd, path, flags);
  if (opened < 0)
    return make_sys_error(-opened, "{} in {}{}", path, root_name, when);
  UniqueFd fd(opened);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    return make_error("{} in {}{}: does not lead to a regular file", path, root_name, when);
  return Result<UniqueFd>(std::move(fd));
}

// reopen_checked, with the error named.
Result<UniqueFd> reopen_for_reading(int own_fds, const UniqueFd& path_fd, const std::string& path,
                                    const std::string& root_name) {
  int fd = reopen_checked(own_fds, path_fd.get());
  if (fd < 0)
    return make_sys_error(-fd, "reading {} in {}: reopening fd {}", path, root_name, path_fd.get());
  return Result<UniqueFd>(UniqueFd(fd));
}

Result<std::string> read_cache(const plugin::Host& host, const CacheCheck& check,
                               const std::string& path, const std::string& when) {
  const std::string& root_name = check.root_name;
  auto checked = open_regular(host, check.root_fd, path, O_PATH, root_name, when);
  if (!checked.ok()) return checked.error();
  auto fd = reopen_for_reading(check.own_fds, *checked, path, root_name);
  if (!fd.ok()) return fd.error();
  return read_bounded(fd->get(), kMaxLdCacheBytes, path + " in " + root_name);
}

}  // namespace

int reopen_checked(int own_fds, int path_fd) {
  const std::string entry = std::to_string(path_fd);
  int fd = ::openat(own_fds, entry.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  return fd >= 0 ? fd : -errno;
}

std::vector<std::string> expected_entries(const graft_action& action) {
  std::vector<std::string> entries;
  if (action.content == nullptr) return entries;
  std::string_view text(action.content, action.content_length);
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    if (end > 0) entries.emplace_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return entries;
}

std::vector<std::string> preferred_dirs(const graft_action& action, const std::vector<std::string>& expected) {
  std::vector<std::string> dirs;
  for (const auto& entry : expected) {
    std::string dir = entry.substr(0, std::max<size_t>(1, entry.rfind('/')));
    bool library_dir = false;
    for (const char* const* path = action.paths; path != nullptr && *path != nullptr; ++path)
      library_dir = library_dir || dir == *path;
    if (!library_dir && std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

std::string soname_of(const std::string& entry) { return entry.substr(entry.rfind('/') + 1); }

bool lists(const std::vector<LdCacheEntry>& entries, const std::string& entry) {
  return std::any_of(entries.begin(), entries.end(), [&](const LdCacheEntry& cached) {
    return cached.value == entry && cached.key == soname_of(entry);
  });
}

Result<std::vector<LdCacheEntry>> read_cache_entries(const plugin::Host& host,
                                                     const CacheCheck& check,
                                                     const std::string& cache_path,
                                                     const std::string& when) {
  auto bytes = read_cache(host, check, cache_path, when);
  if (!bytes.ok()) return bytes.error();
  return parse_ldcache(*bytes, cache_path + " in " + check.root_name);
}

Status check_cache(const plugin::Host& host, const CacheCheck& check, const std::string& cache_path,
                   const std::vector<std::string>& expected) {
  if (expected.empty()) return ok_status();
  const std::string& root_name = check.root_name;
  const std::string when = " after ldconfig ran";
  auto entries = read_cache_entries(host, check, cache_path, when);
  if (!entries.ok()) return entries.error();
  for (const auto& entry : expected) {
    if (!lists(*entries, entry))
      return make_error("ldconfig left {} out of {} in {} (did the image change the directory "
                        "while it ran?)",
                        entry, cache_path, root_name);
    if (auto path = open_regular(host, check.root_fd, entry, O_PATH, root_name, when); !path.ok())
      return path.error();
  }
  return ok_status();
}

}  // namespace graft::ldcache
