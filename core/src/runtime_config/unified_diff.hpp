// SPDX-License-Identifier: Apache-2.0
// The unified diff `graft runtime configure --dry-run` prints for each file
// it would change: `--- PATH` / `+++ PATH` headers (/dev/null for a file
// that is not there, or would be removed), then hunks with three lines of
// context, as `diff -u` writes them, so an admin can read it or feed it to
// `patch`.
#pragma once

#include <optional>
#include <string>

namespace graft::runtime_config {

// "" when the texts are the same.
std::string unified_diff(const std::string& path, const std::optional<std::string>& before,
                         const std::optional<std::string>& after);

}  // namespace graft::runtime_config
