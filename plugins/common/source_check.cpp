// Host source checks for source_check.hpp.
#include "source_check.hpp"

#include <fcntl.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <string>

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

Result<OpenedSource> open_source(const std::string& path, std::initializer_list<FileType> allowed) {
  OpenedSource source;
  source.fd = Fd(::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (!source.fd.valid()) return sys_error("open source", path, errno);
  if (::fstat(source.fd.get(), &source.st) != 0) return sys_error("fstat source", path, errno);
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
