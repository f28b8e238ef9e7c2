// SPDX-License-Identifier: Apache-2.0
#include "image/ld_so_conf.hpp"

#include <fcntl.h>
#include <fnmatch.h>

#include <algorithm>

#include "paths/dir_listing.hpp"
#include "image/image_file.hpp"
#include "paths/paths.hpp"
#include "graft/base/open_in_root.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

std::string_view trimmed(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

void add_includes(std::string_view patterns, std::vector<LdSoConfLine>& lines) {
  while (!patterns.empty()) {
    auto end = patterns.find_first_of(" \t");
    std::string_view pattern = patterns.substr(0, end);
    if (!pattern.empty()) lines.push_back({.include = true, .value = std::string(pattern)});
    patterns = end == std::string_view::npos ? std::string_view() : patterns.substr(end + 1);
  }
}

bool has_wildcard(std::string_view text) { return text.find_first_of("*?[") != std::string_view::npos; }

// Walks the files depth first, in the order ldconfig reads them, until a
// directory is accepted or a bound is reached.
class Walk {
 public:
  Walk(int root_fd, const std::function<bool(const std::string&)>& accept)
      : root_fd_(root_fd), accept_(accept) {}

  std::optional<LdSoConfDir> found;

  void file(const std::string& path, int depth) {
    if (depth > kMaxLdSoConfDepth || ++files_ > kMaxLdSoConfFiles) return;
    auto text = read_image_file(root_fd_, path, kMaxLdSoConfBytes);
    if (!text) return;
    for (const auto& line : parse_ld_so_conf(*text)) {
      if (line.include) include(path, line.value, depth + 1);
      else offer(line.value, path);
      if (found || dirs_ >= kMaxLdSoConfDirs) return;
    }
  }

 private:
  void offer(const std::string& dir, const std::string& file) {
    if (!dir.starts_with('/') || ++dirs_ > kMaxLdSoConfDirs) return;
    std::string normal = normalize_path(dir);
    if (accept_(normal)) found = LdSoConfDir{normal, file};
  }

  // Like glob(3): the directory part literal (a wildcard there is not
  // followed), the last part matched against a bounded, sorted listing.
  void include(const std::string& from, const std::string& pattern, int depth) {
    std::string full = normalize_path(pattern.starts_with('/') ? pattern : dirname_of(from) + "/" + pattern);
    std::string dir = dirname_of(full), name = basename_of(full);
    if (has_wildcard(dir) || files_ >= kMaxLdSoConfFiles) return;
    if (!has_wildcard(name)) return file(full, depth);
    std::string relative = dir == "/" ? "." : dir.substr(1);
    UniqueFd dir_fd(open_in_root(root_fd_, relative.c_str(), O_PATH | O_DIRECTORY));
    if (!dir_fd.valid()) return;
    auto listing = list_directory(dir_fd.get(), kMaxLdSoConfListing, dir);
    if (!listing) return;
    std::vector<std::string> matches;
    for (const auto& entry : listing->names)
      if (::fnmatch(name.c_str(), entry.c_str(), FNM_PERIOD) == 0) matches.push_back(entry);
    std::sort(matches.begin(), matches.end());
    for (const auto& match : matches) {
      file(dir == "/" ? "/" + match : dir + "/" + match, depth);
      if (found) return;
    }
  }

  int root_fd_;
  const std::function<bool(const std::string&)>& accept_;
  std::size_t files_ = 0, dirs_ = 0;
};

}  // namespace

std::vector<LdSoConfLine> parse_ld_so_conf(std::string_view text) {
  std::vector<LdSoConfLine> lines;
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    line = trimmed(line.substr(0, line.find('#')));
    if (line.starts_with("include") && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
      add_includes(trimmed(line.substr(8)), lines);
      continue;
    }
    if (line.empty() || line.starts_with("hwcap")) continue;
    std::string dir(line.substr(0, line.find('=')));  // "/usr/lib=libc6", the old form
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    lines.push_back({.include = false, .value = std::move(dir)});
  }
  return lines;
}

std::optional<LdSoConfDir> first_ld_so_conf_dir(int root_fd,
                                                const std::function<bool(const std::string&)>& accept) {
  Walk walk(root_fd, accept);
  walk.file("/etc/ld.so.conf", 0);
  return walk.found;
}

}  // namespace graft
