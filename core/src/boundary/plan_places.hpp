// SPDX-License-Identifier: Apache-2.0
// The plan against the boundary, on the host it runs on: every host path an
// action binds or makes is judged by what it is and where it really is
// (symlinks and ".." resolved inside its root), not by the key that named
// it. What `graft hook`, `graft plan`, graft-runtime and `graft cdi
// generate` run after planning, so a policy that reached the node without
// `policy check` still binds nothing outside the boundary.
//   - a socket or FIFO: one of the places' sockets;
//   - a directory: one of their directories, or read-only directories when
//     bound read-only;
//   - a regular file: one of their files; a library discovery found (an
//     ELF object, it checked); a binary it found by name, if executable;
//   - a character device: at one of their device paths, and of a declared
//     driver's major unless that path is named exactly; a block device never;
//   - a device-cgroup rule: a declared driver's major, or a node above.
#pragma once

#include "boundary/boundary.hpp"
#include "graft/base/error.hpp"
#include "inventory/inventory.hpp"
#include "plan/plan.hpp"

namespace graft {

// The first action outside the boundary, as an error naming the path, what
// it is and the policy line that asked for it; ok when there is none.
Status check_plan_places(const Plan& plan, const Inventory& inventory, const Policy& policy,
                         const Boundary& boundary);

}  // namespace graft
