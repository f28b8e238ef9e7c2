// SPDX-License-Identifier: Apache-2.0
// The engine's rule for a file it trusts with the host (a plugin, a policy:
// trust/trusted_file.hpp), for a front end about to run a file as root
// that the engine never loads: graft-runtime's real runtime ([runtime]
// path). One rule, kept in the engine, so the two cannot drift apart.
#pragma once

#include <string>

#include "graft/base/error.hpp"

namespace graft {

// `path` (a symlink is resolved) checked as a plugin is: a regular file
// owned by root or by the user graft runs as, not group- or world-writable,
// below directories up to "/" that only they can write (a root-owned sticky
// one excepted). Messages start with `path`.
Status check_trusted_path(const std::string& path);

}  // namespace graft
