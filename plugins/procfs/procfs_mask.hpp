// SPDX-License-Identifier: Apache-2.0
// The content of a procfs mask: copies of a few files of a host procfs
// directory (read in prepare, in the host namespace), edited by the plan's
// rewrites ("params: ModifyDeviceFiles: 1 => ModifyDeviceFiles: 0"), put in
// a fresh detached tmpfs that apply later lays over the container's copy of
// the directory. Only what the plan names is visible through it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"

namespace graft::plugin {

struct MaskFile {
  std::string name;  // one component: "params"
  std::string content;
};

// Files larger than this are refused: procfs files of a driver are small,
// and the copy lives in memory.
inline constexpr size_t kMaskFileLimit = 1 << 20;

// Reads action.paths from the host directory action.source, never following
// a symlink at a file. A file that does not exist is left out and its name
// added to `missing` (drivers differ in what they provide); any other
// failure is an error.
Result<std::vector<MaskFile>> read_mask_files(const graft_action& action,
                                              std::vector<std::string>& missing);

// "FILE: FROM => TO": FILE ends at the first ": ", FROM at " => ".
struct Rewrite {
  std::string file, from, to;
};
Result<Rewrite> parse_rewrite(std::string_view text);

// Replaces every occurrence of rewrite.from; returns how many there were.
size_t apply_rewrite(std::string& content, const Rewrite& rewrite);

// Applies action.rewrites to `files`. A rewrite naming a file the mask does
// not copy is an error (a policy mistake that would otherwise do nothing).
Status apply_rewrites(const graft_action& action, std::vector<MaskFile>& files);

// A detached tmpfs (mode and flags from the options "mode=0555", "nosuid",
// "nodev", "noexec") holding `files`, each mode 0444, owned by root.
Result<UniqueFd> build_mask(const graft_action& action, const std::vector<MaskFile>& files);

}  // namespace graft::plugin
