// SPDX-License-Identifier: Apache-2.0
// Reading small files and checking directories of an untrusted container
// root, from an fd of that root. Every lookup goes through open_in_root
// (RESOLVE_IN_ROOT), so an image symlink cannot lead it out of the root; a
// file is opened O_PATH first and reopened for reading only once it is known
// to be a regular file no larger than the caller's limit, so a FIFO, a
// device node or a huge file of that name costs one fstat.
#pragma once

#include <cstddef>
#include <string>

#include "graft/base/error.hpp"

namespace graft {

// Whether `path` is a directory inside the root `root_fd` holds (following
// the image's links inside the root). One openat2.
bool is_image_dir(int root_fd, const std::string& path);

// Whether anything is at `path` inside the root. One openat2.
bool exists_in_image(int root_fd, const std::string& path);

// An fd open for reading (O_RDONLY | O_NONBLOCK) on the regular file at
// `path` inside the root, or -errno (-EINVAL when it is not a regular file,
// -EFBIG when it is larger than `limit` bytes).
int open_image_file(int root_fd, const std::string& path, std::size_t limit);

// The whole regular file at `path` inside the root, at most `limit` bytes.
// Errors name `path` as the image sees it.
Result<std::string> read_image_file(int root_fd, const std::string& path, std::size_t limit);

}  // namespace graft
