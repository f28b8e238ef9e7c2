#include "files/image_versions.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "files/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

constexpr std::size_t kMaxVersionParts = 8;

struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};

// A readable fd of the directory the O_PATH fd names: openat(".") opens that
// very inode, nothing is looked up by name again.
Result<std::unique_ptr<DIR, DirCloser>> open_listing(int path_fd, const std::string& shown) {
  int fd = ::openat(path_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return make_error("{}: {}", shown, std::strerror(errno));
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    int saved = errno;
    ::close(fd);
    return make_error("{}: {}", shown, std::strerror(saved));
  }
  return std::unique_ptr<DIR, DirCloser>(dir);
}

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
  if (opened < 0) return make_error("{}: {}", shown, std::strerror(-opened));
  UniqueFd path_fd(opened);
  auto listing = open_listing(path_fd.get(), shown);
  if (!listing.ok()) return listing.error();
  std::vector<VersionedFile> found;
  const std::string stem = prefix + ".";
  for (std::size_t seen = 0; seen < kMaxImageDirEntries; ++seen) {
    errno = 0;
    const dirent* entry = ::readdir(listing->get());
    if (entry == nullptr) {
      if (errno != 0) return make_error("{}: {}", shown, std::strerror(errno));
      break;
    }
    std::string_view name(entry->d_name);
    if (!name.starts_with(stem)) continue;
    auto version = parse_dotted_version(name.substr(stem.size()));
    if (version.empty()) continue;
    struct stat st {};
    if (::fstatat(::dirfd(listing->get()), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISREG(st.st_mode)) continue;
    found.push_back({std::string(name), std::move(version)});
  }
  std::sort(found.begin(), found.end(),
            [](const VersionedFile& a, const VersionedFile& b) { return a.version > b.version; });
  return found;
}

}  // namespace graft
