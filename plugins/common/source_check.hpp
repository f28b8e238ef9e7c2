// Host sources, opened and checked before anything is cloned from them. The
// leaf is opened O_PATH|O_NOFOLLOW, so a symlink planted at a source path is
// refused instead of followed, and the type is checked on the opened inode
// (fstat), so what was checked is what gets cloned.
#pragma once

#include <sys/stat.h>

#include <initializer_list>
#include <string>

#include "base/error.hpp"
#include "fd.hpp"

namespace graft::plugin {

enum class FileType { regular, directory, symlink, socket, fifo, char_device, block_device, other };

FileType file_type(mode_t mode);
// "a regular file", "a directory", "a symlink", ...
const char* describe(FileType type);

struct OpenedSource {
  Fd fd;  // O_PATH|O_NOFOLLOW|O_CLOEXEC
  struct stat st {};
  FileType type = FileType::other;
};

// Opens host path `path` and checks it is one of `allowed`; the error names
// the path, what was expected and what was found.
Result<OpenedSource> open_source(const std::string& path, std::initializer_list<FileType> allowed);

// Checks that `st` is a device node of `device_type` ('c' or 'b') and number
// `rdev`; the error names `shown` and what it is instead.
Status expect_device(const struct stat& st, char device_type, dev_t rdev,
                     const std::string& shown);

// Opens a host device node and checks its type ('c' or 'b') and number.
Result<OpenedSource> open_device_source(const std::string& path, char device_type,
                                        unsigned major, unsigned minor);

}  // namespace graft::plugin
