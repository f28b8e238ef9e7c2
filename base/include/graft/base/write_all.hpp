// SPDX-License-Identifier: Apache-2.0
// Writing a whole buffer to an fd. write(2) may take less than it was
// given (a signal, a full pipe), so the rest is written again; but a write
// that takes nothing of a non-empty buffer makes no progress and never will,
// so it is an error (EIO), not a reason to try again forever.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

// The write(2) a caller uses: ::write, or a test's stand-in (a write that
// takes nothing, a look at the file while it is written).
using WriteCall = ssize_t (*)(int fd, const void* data, size_t size);

// All of `text` to `fd`: EINTR retried, a short write continued, a write of
// 0 bytes an error. `shown` names the file in messages ("<shown>: write: ...").
Status write_all(int fd, std::string_view text, const std::string& shown, WriteCall write_call = ::write);

}  // namespace graft
