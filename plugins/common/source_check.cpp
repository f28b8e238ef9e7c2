// SPDX-License-Identifier: Apache-2.0
// Host source checks for source_check.hpp.
#include "source_check.hpp"

#include <fcntl.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstddef>
#include <string>

#include "mount_step.hpp"
#include "sys_error.hpp"

namespace graft::plugin {

FileType file_type(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return FileType::regular;
    case S_IFDIR: return FileType::directory;
    case S_IFLNK: return FileType::symlink;
    case S_IFSOCK: return FileType::socket;
    case S_IFIFO: return FileType::fifo;
    case S_IFCHR: return FileType::char_device;
    case S_IFBLK: return FileType::block_device;
    default: return FileType::other;
  }
}

const char* describe(FileType type) {
  switch (type) {
    case FileType::regular: return "a regular file";
    case FileType::directory: return "a directory";
    case FileType::symlink: return "a symlink";
    case FileType::socket: return "a socket";
    case FileType::fifo: return "a FIFO";
    case FileType::char_device: return "a character device";
    case FileType::block_device: return "a block device";
    case FileType::other: break;
  }
  return "an unknown file type";
}

namespace {

std::string expected_list(std::initializer_list<FileType> allowed) {
  std::string text;
  for (FileType type : allowed) {
    if (!text.empty()) text += " or ";
    text += describe(type);
  }
  return text;
}

}  // namespace

SourceRoot SourceRoot::of(const Host& host, const graft_apply_context& context) {
  SourceRoot root;
  bool known = context.struct_size >= offsetof(graft_apply_context, source_root) +
                                          sizeof context.source_root;
  if (!known || context.source_root_fd < 0 || context.source_root == nullptr) return root;
  root.host = &host;
  root.fd = context.source_root_fd;
  root.path = context.source_root;
  while (root.path.size() > 1 && root.path.back() == '/') root.path.pop_back();
  return root;
}

namespace {

// `path` as an fd: inside the source root when it lies below it, otherwise
// as a host path. The leaf is never followed either way.
Result<UniqueFd> open_host_path(const std::string& path, const SourceRoot& root) {
  bool below = root.fd >= 0 && root.path != "/" && path.starts_with(root.path + "/");
  if (!below) {
    UniqueFd fd(::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) return sys_error(mount_step::open_source, path, errno);
    return fd;
  }
  int fd = root.host->resolve_in_root(root.fd, path.substr(root.path.size()),
                                      O_PATH | O_NOFOLLOW);
  if (fd < 0) return sys_error(mount_step::open_source, "open source (inside " + root.path + ")", path, -fd);
  return UniqueFd(fd);
}

}  // namespace

Result<OpenedSource> open_source(const std::string& path, std::initializer_list<FileType> allowed,
                                 const SourceRoot& root) {
  OpenedSource source;
  auto fd = open_host_path(path, root);
  if (!fd) return fd.error();
  source.fd = std::move(*fd);
  if (::fstat(source.fd.get(), &source.st) != 0) return sys_error(mount_step::stat_source, path, errno);
  source.type = file_type(source.st.st_mode);
  for (FileType type : allowed)
    if (type == source.type) return source;
  return make_error("source {} is {}, expected {}", path, describe(source.type),
                    expected_list(allowed));
}

Status expect_device(const struct stat& st, char device_type, dev_t rdev,
                     const std::string& shown) {
  if (device_type != 'c' && device_type != 'b')
    return make_error("{}: device type '{}' is neither 'c' nor 'b'", shown, device_type);
  FileType wanted = device_type == 'c' ? FileType::char_device : FileType::block_device;
  FileType found = file_type(st.st_mode);
  if (found != wanted)
    return make_error("{} is {}, expected {}", shown, describe(found), describe(wanted));
  if (st.st_rdev != rdev)
    return make_error("{} is device {}:{}, expected {} {}:{}", shown, ::major(st.st_rdev),
                      ::minor(st.st_rdev), device_type, ::major(rdev), ::minor(rdev));
  return ok_status();
}

Result<OpenedSource> open_device_source(const std::string& path, char device_type,
                                        unsigned major, unsigned minor) {
  auto source = open_source(path, {FileType::char_device, FileType::block_device});
  if (!source) return source;
  if (auto status = expect_device(source->st, device_type, makedev(major, minor),
                                  "source " + path);
      !status)
    return status.error();
  return source;
}

}  // namespace graft::plugin
