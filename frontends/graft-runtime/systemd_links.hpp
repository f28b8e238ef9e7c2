// SPDX-License-Identifier: Apache-2.0
// What a spec's device rules need before runc's systemd cgroup driver sees
// them: runc hands systemd a rule as DeviceAllow=/dev/char/MAJ:MIN only when
// that path (or /sys/dev/char/MAJ:MIN) exists, and GPU nodes made by mknod
// have neither. So in declarative mode graft-runtime links each node the
// plan put in the spec (base's device_number_link.hpp) before runc starts;
// the next daemon-reload then keeps the container's devices. Whether the
// runtime uses that driver: systemd_cgroup_option.hpp.
#pragma once

#include <string>
#include <vector>

#include "graft/engine/container_edits.hpp"
#include "graft/base/error.hpp"

namespace graft::runtime {

// /dev/char (or /dev/block) links for every node in `nodes` that the host
// has (host_path set). `dev_dir` is "/dev" but for tests.
Status link_spec_devices(const std::vector<DeviceNodeEdit>& nodes, const std::string& dev_dir = "/dev");

}  // namespace graft::runtime
