// SPDX-License-Identifier: Apache-2.0
// cgroup v1: one write of "c MAJ:MIN rw" to the cgroup's devices.allow per rule.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "device_rule.hpp"

namespace graft::cgroup {

// `cgroup_fd` is the O_PATH fd of the container's devices cgroup; `path`
// names it in messages.
Status allow_v1(int cgroup_fd, const std::string& path, const DeviceRule& rule);

}  // namespace graft::cgroup
