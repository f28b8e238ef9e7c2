// SPDX-License-Identifier: Apache-2.0
#include "image/image_versions.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "paths/dir_listing.hpp"
#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

constexpr std::size_t kMaxVersionParts = 8;

}  // namespace

std::vector<unsigned long> parse_dotted_version(std::string_view text) {
  std::vector<unsigned long> parts;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = std::min(text.find('.', start), text.size());
    unsigned long value = 0;
    auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + end, value);
    if (end == start || ec != std::errc() || ptr != text.data() + end || parts.size() == kMaxVersionParts)
      return {};
    parts.push_back(value);
    start = end + 1;
  }
  return parts;
}

Result<std::vector<VersionedFile>> image_versioned_files(const std::string& root, const std::string& dir,
                                                         const std::string& prefix) {
  std::string shown = root + dir;
  int opened = open_in_host_root(root, dir, O_PATH | O_DIRECTORY);
  if (opened == -ENOENT || opened == -ENOTDIR) return std::vector<VersionedFile>{};
  if (opened < 0) return make_sys_error(-opened, "{}", shown);
  UniqueFd path_fd(opened);
  auto listing = list_directory(path_fd.get(), kMaxImageDirEntries, shown);
  if (!listing) return listing.error();
  std::vector<VersionedFile> found;
  const std::string stem = prefix + ".";
  for (const std::string& name : listing->names) {
    if (!name.starts_with(stem)) continue;
    auto version = parse_dotted_version(std::string_view(name).substr(stem.size()));
    if (version.empty()) continue;
    struct stat st {};
    if (::fstatat(path_fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISREG(st.st_mode)) continue;
    found.push_back({name, std::move(version)});
  }
  std::sort(found.begin(), found.end(),
            [](const VersionedFile& a, const VersionedFile& b) { return a.version > b.version; });
  return found;
}

}  // namespace graft
