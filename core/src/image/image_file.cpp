// SPDX-License-Identifier: Apache-2.0
#include "image/image_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "graft/base/bounded_read.hpp"
#include "graft/base/open_in_root.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

int open_path(int root_fd, const std::string& path, int flags) {
  std::string relative = path.starts_with('/') ? path.substr(1) : path;
  if (relative.empty()) relative = ".";
  return open_in_root(root_fd, relative.c_str(), flags);
}

}  // namespace

bool is_image_dir(int root_fd, const std::string& path) {
  return UniqueFd(open_path(root_fd, path, O_PATH | O_DIRECTORY)).valid();
}

bool exists_in_image(int root_fd, const std::string& path) {
  return UniqueFd(open_path(root_fd, path, O_PATH)).valid();
}

int open_image_file(int root_fd, const std::string& path, std::size_t limit) {
  UniqueFd path_fd(open_path(root_fd, path, O_PATH));
  if (!path_fd.valid()) return path_fd.get();
  struct stat info {};
  if (::fstat(path_fd.get(), &info) != 0) return -errno;
  if (!S_ISREG(info.st_mode)) return -EINVAL;
  if (static_cast<std::size_t>(info.st_size) > limit) return -EFBIG;
  // Reopened through the checked fd, never looked up by name again.
  std::string reopen = "/proc/self/fd/" + std::to_string(path_fd.get());
  int fd = ::open(reopen.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  return fd >= 0 ? fd : -errno;
}

Result<std::string> read_image_file(int root_fd, const std::string& path, std::size_t limit) {
  UniqueFd fd(open_image_file(root_fd, path, limit));
  if (fd.get() == -EINVAL) return make_error("{}: not a regular file", path);
  if (fd.get() == -EFBIG) return make_error("{} is larger than {} bytes", path, limit);
  if (!fd.valid()) return make_sys_error(-fd.get(), "{}", path);
  // The file may have grown since the fstat: the read is bounded all the same.
  return read_bounded(fd.get(), limit, path);
}

}  // namespace graft
