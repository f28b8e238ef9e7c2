// SPDX-License-Identifier: Apache-2.0
// What a systemd unit's device settings allow, and so whether graft's rules
// belong in its DeviceAllow= list. Pure.
//
// systemd (252, systemd.resource-control(5), src/core/cgroup.c) reads
// DevicePolicy= with DeviceAllow= as: "strict", only the list; "closed", the
// list and the standard pseudo devices (/dev/null, /dev/zero, ...); "auto"
// (the default), as closed when the list has an entry, and no restriction
// at all when it is empty (cgroup v1: devices.allow "a"; v2: no device
// program of systemd's). runc and crun give a privileged container, or one
// whose spec allows `a *:* rwm`, exactly that: DevicePolicy=auto and an
// empty DeviceAllow=. One entry added there closes the unit at once, and
// systemd then denies every device but the standard ones and that entry:
// the container's disks, /dev/fuse, tun, InfiniBand. Such a unit needs
// nothing from graft: no reload of it ever takes a device away.
#pragma once

#include <cstddef>
#include <string>

namespace graft::cgroup {

struct UnitDevicePolicy {
  std::string policy;             // DevicePolicy=: "auto", "closed" or "strict"
  std::size_t allow_entries = 0;  // how many DeviceAllow= entries the unit has
};

// Whether the unit lets its processes use every device: DevicePolicy=auto
// with no DeviceAllow= entry. Any other policy (one systemd adds later
// included) counts as closed, so graft adds its rules as before.
bool allows_every_device(const UnitDevicePolicy& unit);

}  // namespace graft::cgroup
