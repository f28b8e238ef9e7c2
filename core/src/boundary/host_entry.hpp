// SPDX-License-Identifier: Apache-2.0
// A host path as the kernel resolves it inside its host root: what it is
// (its stat) and its real path there, symlinks and ".." followed without
// leaving the root. What the boundary judges (plan_places.hpp).
#pragma once

#include <sys/stat.h>

#include <string>

#include "graft/base/error.hpp"

namespace graft {

struct HostEntry {
  std::string path;  // real path, relative to the root ("/run/x/socket")
  struct stat info {};
};

// `host_path` (root + path, as plans name sources) resolved inside `root`.
Result<HostEntry> resolve_host_entry(const std::string& root, const std::string& host_path);

// "a socket", "a directory", "a block device", ...
const char* entry_kind(const struct stat& info);

}  // namespace graft
