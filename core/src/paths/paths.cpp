// SPDX-License-Identifier: Apache-2.0
#include "paths/paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "graft/base/open_in_root.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

std::string join_root(std::string_view root, std::string_view path) {
  std::string rooted(root);
  while (rooted.size() > 1 && rooted.back() == '/') rooted.pop_back();
  if (rooted == "/" || rooted.empty()) return normalize_path(path);
  // One slash between the two, so an already normal result needs no rebuild.
  if (!path.starts_with('/')) rooted += '/';
  rooted += path;
  return normalize_path(rooted);
}

namespace {

// Whether normalize_path would give `path` back as it is: absolute, and no
// component empty, "." or ".." (so no "//" and no trailing "/" either).
// Nearly every path graft joins already is; checking costs one scan.
bool is_normal_path(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.size() == 1) return true;
  for (size_t start = 1;;) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (end == path.size()) return true;
    start = end + 1;
  }
}

}  // namespace

std::string normalize_path(std::string_view path) {
  if (is_normal_path(path)) return std::string(path);
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    std::string_view part = path.substr(pos, next - pos);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    pos = next + 1;
  }
  std::string out;
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  return out.empty() ? "/" : out;
}

std::string dirname_of(std::string_view path) {
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string basename_of(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

Result<std::string> follow_links_in_root(const std::string& root, const std::string& path) {
  return follow_links_from(root, "/", normalize_path(path));
}

Result<std::string> follow_links_from(const std::string& root, std::string done, std::string rest) {
  constexpr int max_links = 40;
  int links = 0;
  const std::string path = done == "/" ? rest : done + rest;  // for messages
  std::string remaining = std::move(rest);
  while (remaining != "/" && !remaining.empty()) {
    auto next = remaining.find('/', 1);
    std::string part = remaining.substr(1, next == std::string::npos ? std::string::npos : next - 1);
    remaining = next == std::string::npos ? "/" : remaining.substr(next);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      done = dirname_of(done);
      continue;
    }
    std::string candidate = done == "/" ? "/" + part : done + "/" + part;
    char target[4096];
    ssize_t n = ::readlink(join_root(root, candidate).c_str(), target, sizeof target - 1);
    if (n < 0) {
      done = candidate;  // not a link (or missing): keep the name as is
      continue;
    }
    if (++links > max_links) return make_error("{}: too many levels of symbolic links", path);
    std::string link(target, static_cast<size_t>(n));
    std::string rest = remaining == "/" ? "" : remaining;
    if (link.starts_with('/')) {
      done = "/";
      remaining = normalize_path(link + rest);
    } else {
      remaining = "/" + link + rest;  // relative to `done`; ".." handled above
      if (remaining.back() == '/' && remaining.size() > 1) remaining.pop_back();
    }
  }
  return done;
}

int open_in_host_root(const std::string& root, const std::string& path, int flags) {
  UniqueFd root_fd(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd.valid()) return -errno;
  std::string relative = path.starts_with('/') ? path.substr(1) : path;
  if (relative.empty()) relative = ".";
  return open_in_root(root_fd.get(), relative.c_str(), flags);
}

bool exists_in_root(const std::string& root, const std::string& path) {
  return UniqueFd(open_in_host_root(root, path, O_PATH)).valid();
}

}  // namespace graft
