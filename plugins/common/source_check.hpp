// SPDX-License-Identifier: Apache-2.0
// Host sources, opened and checked before anything is cloned from them. The
// leaf is opened O_PATH|O_NOFOLLOW, so a symlink planted at a source path is
// refused instead of followed, and the type is checked on the opened inode
// (fstat), so what was checked is what gets cloned.
#pragma once

#include <sys/stat.h>

#include <initializer_list>
#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::plugin {

enum class FileType { regular, directory, symlink, socket, fifo, char_device, block_device, other };

FileType file_type(mode_t mode);
// "a regular file", "a directory", "a symlink", ...
const char* describe(FileType type);

struct OpenedSource {
  UniqueFd fd;  // O_PATH|O_NOFOLLOW|O_CLOEXEC
  struct stat st {};
  FileType type = FileType::other;
};

// The host root the plan's sources live under (graft_apply_context ABI 1.2:
// the driver root, e.g. a driver container's /run/nvidia/driver). A source
// below it is opened inside it (resolve_in_root from its fd), so an
// absolute symlink in the driver root, libcuda.so.1 -> /usr/lib/..., means
// the driver root's file and not the host's. Empty: plain host paths.
struct SourceRoot {
  const Host* host = nullptr;
  int fd = -1;
  std::string path;  // normalised, no trailing '/'

  static SourceRoot of(const Host& host, const graft_apply_context& context);
};

// Opens host path `path` (inside `root` when it lies below it) and checks it
// is one of `allowed`; the error names the path, what was expected and what
// was found.
Result<OpenedSource> open_source(const std::string& path, std::initializer_list<FileType> allowed,
                                 const SourceRoot& root = {});

// Checks that `st` is a device node of `device_type` ('c' or 'b') and number
// `rdev`; the error names `shown` and what it is instead.
Status expect_device(const struct stat& st, char device_type, dev_t rdev,
                     const std::string& shown);

// Opens a host device node and checks its type ('c' or 'b') and number.
Result<OpenedSource> open_device_source(const std::string& path, char device_type,
                                        unsigned major, unsigned minor);

}  // namespace graft::plugin
