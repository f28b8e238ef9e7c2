// SPDX-License-Identifier: Apache-2.0
// Naming a container's systemd unit from its cgroup, and the name systemd
// reads a device by in DeviceAllow=. Pure. (A unit's D-Bus object path is
// sd-bus's own: plugins/cgroup/unit_object_path.hpp.)
// The cgroup plugin uses them to tell systemd what it allowed
// (plugins/cgroup/systemd_scope.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace graft::cgroup {

// The unit a cgroup path names: its last component when that is a scope or
// service unit ("/system.slice/runc-abc.scope" -> "runc-abc.scope"), else
// nothing (a cgroupfs driver's "/docker/abc", "/libpod_parent/libpod-abc").
std::optional<std::string> unit_of_cgroup(std::string_view cgroup_path);

// The DeviceAllow= path of a device: "/dev/char/195:1", "/dev/block/8:0".
// systemd reads the numbers from it; the path need not exist.
std::string device_allow_path(char type, std::uint32_t major, std::uint32_t minor);

}  // namespace graft::cgroup
