// SPDX-License-Identifier: Apache-2.0
// containerd's config.toml with graft's CRI runtime entry in a marked block
// at its end, or taken out. Not a conf.d drop-in: containerd 1.x merges an
// imported file plugin by plugin, so a drop-in naming
// plugins."io.containerd.grpc.v1.cri" replaces that whole plugin's
// settings (sandbox image, CNI dirs, the runc entry) with the defaults plus
// graft's table (seen with Debian 12's containerd 1.6.20 `config dump`).
// The block is plain text appended to the file, so comments and everything
// else stay byte for byte; the result is parsed before it is accepted.
#pragma once

#include <optional>
#include <string>

#include "graft/base/error.hpp"
#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {

// The file with graft's block (replacing an older one): the CRI runtime
// `entry.name`, runtime_type io.containerd.runc.v2, options BinaryName and,
// when the file's runc entry sets it, the same SystemdCgroup; and, when the
// file names no runc entry while runc is the default runtime, containerd's
// default runc entry (containerd 1.6 drops its built-in one once the file
// names any runtime, and its CRI plugin then fails to load). The plugin's
// name follows the file's `version` (1: "cri", 2: "io.containerd.grpc.v1.cri",
// 3: "io.containerd.cri.v1.runtime"); a missing file is created as version 2.
// Invalid TOML, or a file that already defines that runtime outside the
// block, is an error (nothing is written).
Result<std::string> containerd_configured(const std::optional<std::string>& before, const RuntimeEntry& entry);

// The file without graft's block; nullopt when nothing else is left (graft
// created it). A BEGIN line without its END line is an error.
Result<std::optional<std::string>> containerd_removed(const std::optional<std::string>& before);

}  // namespace graft::runtime_config
