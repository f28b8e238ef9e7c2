#include "base/paths.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace graft {

std::string join_root(std::string_view root, std::string_view path) {
  std::string rooted(root);
  while (rooted.size() > 1 && rooted.back() == '/') rooted.pop_back();
  if (rooted == "/" || rooted.empty()) return normalize_path(path);
  return normalize_path(rooted + "/" + std::string(path));
}

std::string normalize_path(std::string_view path) {
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
  constexpr int max_links = 40;
  int links = 0;
  std::string done = "/";  // root-relative prefix already resolved
  std::string remaining = normalize_path(path);
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
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return -errno;
  struct open_how how {};
  how.flags = static_cast<std::uint64_t>(flags) | O_CLOEXEC;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  std::string relative = path.starts_with('/') ? path.substr(1) : path;
  if (relative.empty()) relative = ".";
  // EAGAIN: a rename or mount anywhere on the host raced a ".." step of the
  // lookup; that says nothing about the path, so ask again (a few times, as
  // the plugins' resolve_in_root does).
  long fd = -1;
  for (int attempt = 0; attempt < 16; ++attempt) {
    fd = ::syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof how);
    if (fd >= 0 || errno != EAGAIN) break;
  }
  int err = errno;
  ::close(root_fd);
  return fd < 0 ? -err : static_cast<int>(fd);
}

bool exists_in_root(const std::string& root, const std::string& path) {
  int fd = open_in_host_root(root, path, O_PATH);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

std::optional<std::string> stat_in_root(const std::string& root, const std::string& path,
                                        struct stat& st) {
  auto real = follow_links_in_root(root, path);
  if (!real) return std::nullopt;
  // The real path has no symlink left: opening it without following checks
  // that, and the kernel keeps it inside the root whatever happened since.
  int fd = open_in_host_root(root, *real, O_PATH | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  int got = ::fstat(fd, &st);
  ::close(fd);
  if (got != 0) return std::nullopt;
  return *real;
}

Result<std::string> read_file(const std::string& path, std::size_t limit) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error("{}: {}", path, std::strerror(errno));
  std::string data;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      return make_error("{}: {}", path, std::strerror(saved));
    }
    if (n == 0) break;
    data.append(buffer, static_cast<size_t>(n));
    if (data.size() > limit) {
      ::close(fd);
      return make_error("{}: larger than {} bytes", path, limit);
    }
  }
  ::close(fd);
  return data;
}

}  // namespace graft
