// SPDX-License-Identifier: Apache-2.0
// Entries written whole or not at all: a symlink or a file is made under a
// temporary name in the target's own (resolved) directory and renamed over
// the final name, so the container never sees half a file or a missing link,
// and a failed apply leaves the old entry as it was. A symlink or file in the
// way is replaced; a directory is refused (rename would fail on it anyway,
// with a less useful message). A symlink with nothing in its way is made at
// its name: symlinkat makes it whole, and a rename would only cost a
// directory update more.
#pragma once

#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "root_path.hpp"

namespace graft::plugin {

// `path` -> `value` inside `root` (the value is stored as given, never resolved).
Status replace_with_symlink(const RootFs& root, const std::string& path, const std::string& value);

// A regular file `path` holding `content`, mode 0644, owned by the container's owner.
Status replace_with_file(const RootFs& root, const std::string& path, std::string_view content);

}  // namespace graft::plugin
