// SPDX-License-Identifier: Apache-2.0
// Naming a container's systemd unit from its cgroup, and the names systemd
// gives a unit and a device over D-Bus. Pure.
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

// The D-Bus object path systemd gives `unit`, its name escaped as sd-bus
// escapes labels ("runc-a.scope" -> "/org/freedesktop/systemd1/unit/runc_2da_2escope").
std::string unit_object_path(std::string_view unit);

// The DeviceAllow= path of a device: "/dev/char/195:1", "/dev/block/8:0".
// systemd reads the numbers from it; the path need not exist.
std::string device_allow_path(char type, std::uint32_t major, std::uint32_t minor);

}  // namespace graft::cgroup
