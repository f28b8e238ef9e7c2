// SPDX-License-Identifier: Apache-2.0
// /dev/char links for every device node a CDI spec names, made when the
// spec is installed (`graft cdi generate --output FILE`). A CDI engine puts
// the spec's nodes and their rules into the container's config; runc's
// systemd cgroup driver then passes a rule to systemd only when
// /dev/char/MAJ:MIN exists, and a GPU node made by mknod has none, so a
// daemon-reload would take the GPU away (base's device_number_link.hpp).
// /dev is a tmpfs: the links last until the next boot, like the spec's
// regeneration at boot (docs/cdi.md).
#pragma once

#include <string>

#include "cdi/cdi_spec.hpp"
#include "graft/base/error.hpp"

namespace graft::cdi {

// Links every node of `spec` (spec-level and per device) that names a host
// node. `host_root` is where the host is mounted ("" or "/" for this root):
// the links go into its /dev and say the host's own paths. Nothing is
// linked on a host whose init is not systemd (no reload to survive).
Status link_spec_device_numbers(const Spec& spec, const std::string& host_root);

}  // namespace graft::cdi
