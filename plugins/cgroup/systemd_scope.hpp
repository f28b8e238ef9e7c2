// SPDX-License-Identifier: Apache-2.0
// Telling systemd what graft allowed in a container's device cgroup.
//
// With a systemd cgroup driver (runc or crun --systemd-cgroup, podman's
// systemd manager, kubelet and containerd with SystemdCgroup) the container
// lives in a transient unit, "runc-ID.scope". On every daemon-reload (a
// package install, kubelet) systemd rewrites that unit's device rules from
// its own DeviceAllow= list: a rule graft wrote only into the cgroup is
// gone, and the container loses its GPU ("Failed to initialize NVML:
// Unknown Error"). So graft also adds each rule to the unit's DeviceAllow=,
// as a runtime property over D-Bus (SetUnitProperties), the way the runtime
// itself hands systemd the rules it knows (names: systemd_unit.hpp).
#pragma once

#include <string>
#include <vector>

#include "device_rule.hpp"
#include "graft/base/error.hpp"
#include "graft/base/systemd_booted.hpp"
#include "sd_bus_library.hpp"
#include "systemd_unit.hpp"
#include "unit_device_policy.hpp"

namespace graft::cgroup {

// A connection to systemd's manager, opened in the host's mount namespace
// (prepare) and used later from anywhere.
class SystemdManager {
 public:
  SystemdManager(const SystemdManager&) = delete;
  SystemdManager& operator=(const SystemdManager&) = delete;
  SystemdManager(SystemdManager&& other) noexcept;
  SystemdManager& operator=(SystemdManager&& other) noexcept;
  ~SystemdManager();

  // systemd's private socket (root only, no dbus-daemon needed), else the
  // system bus.
  static Result<SystemdManager> connect();

  // Whether systemd holds `pid` in `unit` (GetUnitByPID): a cgroup path
  // that merely looks like a unit's, under a cgroupfs driver, is not one.
  Result<bool> holds(const std::string& unit, int pid) const;

  // `unit`'s DevicePolicy= and how many DeviceAllow= entries it has now,
  // read before anything is added (unit_device_policy.hpp: an open unit
  // takes nothing).
  Result<UnitDevicePolicy> device_policy(const std::string& unit) const;

  // Adds `rules` to `unit`'s DeviceAllow= as a runtime property.
  Status allow_devices(const std::string& unit, const std::vector<DeviceRule>& rules) const;

 private:
  SystemdManager(const SdBusLibrary* lib, sd_bus* bus) : lib_(lib), bus_(bus) {}
  const SdBusLibrary* lib_ = nullptr;
  sd_bus* bus_ = nullptr;
};

}  // namespace graft::cgroup
