// SPDX-License-Identifier: Apache-2.0
// /dev/char/MAJ:MIN (and /dev/block/MAJ:MIN): the links udev keeps for every
// device the kernel registers, made here for nodes it does not know.
//
// runc's systemd cgroup driver hands systemd each device rule of a spec as
// DeviceAllow=/dev/char/MAJ:MIN, but only after checking that path (or
// /sys/dev/char/MAJ:MIN) exists; a node made by mknod, as GPU drivers' nodes
// often are, has neither, so runc drops its rule ("skipping device ... for
// systemd") and the next daemon-reload takes the device away from the
// container. With the link in place runc passes the rule on. The link is
// made through fds below the dev directory and never replaces an entry
// that leads to a device node.
#pragma once

#include <cstdint>
#include <string>

#include "graft/base/error.hpp"

namespace graft {

enum class LinkOutcome { made, present };

// Makes `dev_dir`/char/MAJ:MIN (block: `dev_dir`/block/...) a symlink to
// `node`, which must be a device node of that type and number. An entry
// that already leads to a device node is left alone (`present`); a dangling
// link there is replaced. `link_value`, when given, is what the link says
// instead of `node`: the node's path as the host sees it, where `node` is
// that path under a host root mounted elsewhere (the node agent's /host).
Result<LinkOutcome> link_device_number(const std::string& dev_dir, char type, std::uint32_t major,
                                       std::uint32_t minor, const std::string& node,
                                       const std::string& link_value = "");

}  // namespace graft
