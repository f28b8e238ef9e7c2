// Replacing a file whole: the new content goes to a temporary file beside
// it (same directory, so the rename is atomic), complete and with its final
// mode and owner, and is then renamed over the path. A reader (a runtime
// watching /etc/cdi, runc reading config.json) sees the old file or the new
// one, never half of either.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

// An existing file keeps its mode and owner; a new one gets `new_mode` and
// the caller's owner. On failure nothing is left beside the path.
Status replace_file(const std::string& path, std::string_view text, mode_t new_mode = 0644);

}  // namespace graft
