// SPDX-License-Identifier: Apache-2.0
// Driver libraries from [discovery] library_dirs (library_pick.hpp): for
// hosts whose ld.so.cache does not list the driver (a vendor tree under
// /usr/local, a cloud installer's directory). Only run when the policy names
// directories, so the cache's fast path reads no directory.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "paths/dir_listing.hpp"
#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"
#include "inventory/elf_identity.hpp"
#include "inventory/library_pick.hpp"

namespace graft {
namespace {

// A driver's library directory holds a few hundred entries; a directory
// larger than this is not read further.
constexpr std::size_t kMaxDirEntries = 1u << 14;

// The names in `dir` (inside the driver root) that could be a wanted library:
// a wanted prefix and the driver version suffix; sorted.
Result<std::vector<std::string>> candidate_names(const Policy& policy, const std::string& dir,
                                                 const LibraryPicks& picks, std::vector<std::string>& warnings) {
  std::string shown = join_root(policy.host.driver_root, dir);
  int fd = open_in_host_root(policy.host.driver_root, dir, O_PATH | O_DIRECTORY);
  if (fd < 0) return make_sys_error(-fd, "library dir {}: cannot open", shown);
  UniqueFd dir_fd(fd);
  auto listing = list_directory(dir_fd.get(), kMaxDirEntries, "library dir " + shown);
  if (!listing) return listing.error();
  if (listing->truncated)
    warnings.push_back(fmt::format("library dir {}: more than {} entries, the rest not read", shown,
                                   kMaxDirEntries));
  std::vector<std::string> names;
  for (std::string& name : listing->names)
    if (name.ends_with(picks.suffix) && picks.index.matches(name)) names.push_back(std::move(name));
  std::sort(names.begin(), names.end());
  return names;
}

// Whether `name` could still fill a pick of either ABI: files of names the
// cache (or an earlier directory) already gave are not opened.
bool still_wanted(const std::string& name, const LibraryPicks& picks) {
  bool wanted = false;
  picks.index.each_prefix_of(name, [&](std::size_t i) {
    wanted = wanted || picks.native[i].path.empty() || picks.compat32[i].path.empty();
  });
  return wanted;
}

void pick_from_dir(const Policy& policy, const std::string& dir, LibraryPicks& picks,
                   std::vector<std::string>& warnings) {
  auto names = candidate_names(policy, dir, picks, warnings);
  if (!names) {
    warnings.push_back(names.error().message);
    return;
  }
  for (const auto& name : *names) {
    if (!still_wanted(name, picks)) continue;
    auto real = picks.versioned_real_path(dir + "/" + name);
    if (!real) continue;
    auto identity = read_elf_identity_in_root(policy.host.driver_root, *real);
    if (!identity) {
      warnings.push_back(identity.error().message);
      continue;
    }
    if (identity->abi == LdCacheAbi::other) continue;
    auto& picked = picks.of(identity->abi);
    picks.index.each_prefix_of(name, [&](std::size_t i) {
      if (!picked[i].path.empty()) return;
      picked[i] = LibraryPick{identity->soname.empty() ? name : identity->soname, *real,
                              LibrarySource{LibrarySource::Kind::dir, dir}};
    });
  }
}

}  // namespace

void pick_from_library_dirs(const Policy& policy, LibraryPicks& picks, std::vector<std::string>& warnings) {
  for (const auto& dir : policy.discovery.library_dirs) pick_from_dir(policy, normalize_path(dir), picks, warnings);
}

}  // namespace graft
