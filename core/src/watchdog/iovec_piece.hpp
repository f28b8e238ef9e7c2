// SPDX-License-Identifier: Apache-2.0
// One iovec over a piece of text, for the fault paths' single writev calls
// (running_note.cpp, deadline.cpp): they run in signal handlers, where
// building a std::string is not allowed but pointing at one is.
#pragma once

#include <sys/uio.h>

#include <string_view>

namespace graft {

inline iovec iovec_piece(std::string_view text) { return {const_cast<char*>(text.data()), text.size()}; }

}  // namespace graft
