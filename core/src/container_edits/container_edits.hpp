// SPDX-License-Identifier: Apache-2.0
// A Plan split into what a container's configuration expresses by itself
// (an OCI config.json, a CDI spec's containerEdits) and the residual actions
// only graft can carry out when the container starts (`graft cdi-hook`).
// Pure: the split reads nothing but the plan.
//
// Where each ActionKind goes, and why:
//   device_node     native: deviceNodes / linux.devices (path, host path,
//                   type, major, minor); the runtime makes the node.
//   cgroup_allow    native: linux.resources.devices. CDI has no rule
//                   without a node: a CDI runtime allows each deviceNode's
//                   number itself, so a rule with no node of its own is not
//                   expressible there (cdi_spec refuses it).
//   bind_mount      native: mounts, with "bind" added to the plan's options
//                   (runc binds a mount whose options say bind) -- except a
//                   target under /proc, which is residual: runc refuses
//                   mount destinations inside /proc (checkProcMount), and
//                   graft's procfs binds must land on the procfs mask, which
//                   is itself residual.
//   env             native: process.env / containerEdits.env.
//   symlink         residual: neither format can make a link in the image.
//   ldcache_update  residual: refreshing ld.so.cache runs ldconfig in the root.
//   procfs_mask     residual: a tmpfs of filtered copies made by graft.
//   config_file     residual: neither format writes a file with given content.
#pragma once

#include <string>
#include <vector>

#include "graft/engine/container_edits.hpp"
#include "plan/plan.hpp"

namespace graft {

// The native edits (graft/engine/container_edits.hpp, what a front end
// writes) and the actions only graft carries out.
struct ContainerEdits : NativeEdits {
  std::vector<Action> residual;  // in plan order, for `graft cdi-hook`
};

// Whether a config can carry `action` itself (the table above).
bool natively_expressible(const Action& action);

// Every action of the plan, in plan order, as native edits or residual actions.
ContainerEdits split_plan(const Plan& plan);

}  // namespace graft
