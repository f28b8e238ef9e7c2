// SPDX-License-Identifier: Apache-2.0
// The steps of the mount helpers (source_check, detached_mount,
// prepared_bind, root_mount, root_path, bind_check), named as values the way
// bubblewrap's bind_mount_result names its own: a failure says which step
// failed in Error::step and why in Error::code, so a caller or a test tells
// "the source could not be opened" from "the clone was refused" without
// reading the message. Each name is also the word the message starts with.
#pragma once

#include "graft/base/error.hpp"

namespace graft::plugin::mount_step {

// The host source (source_check.hpp).
inline constexpr StepName open_source = "open source";
inline constexpr StepName stat_source = "fstat source";

// The detached mount (detached_mount.hpp).
inline constexpr StepName clone = "open_tree";
inline constexpr StepName set_attributes = "mount_setattr";
inline constexpr StepName attach = "move_mount";
inline constexpr StepName open_tmpfs = "fsopen tmpfs";
inline constexpr StepName configure_tmpfs = "fsconfig";
inline constexpr StepName create_tmpfs = "fsconfig create tmpfs";
inline constexpr StepName mount_tmpfs = "fsmount tmpfs";

// The mount point inside the container root (root_path.hpp, root_mount.hpp,
// prepared_bind.hpp, bind_check.hpp).
inline constexpr StepName resolve_target = "resolve in root";
inline constexpr StepName open_target = "openat";
inline constexpr StepName stat_target = "fstat";
inline constexpr StepName make_directory = "mkdirat";
inline constexpr StepName create_file = "create";
inline constexpr StepName make_node = "mknodat";
inline constexpr StepName own_node = "fchownat";
inline constexpr StepName own_target = "fchown";
inline constexpr StepName mode_target = "fchmod";
inline constexpr StepName copy_fd = "dup";
inline constexpr StepName mount_id = "statx";

}  // namespace graft::plugin::mount_step
