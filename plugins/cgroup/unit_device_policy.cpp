// SPDX-License-Identifier: Apache-2.0
// An open device policy (unit_device_policy.hpp).
#include "unit_device_policy.hpp"

namespace graft::cgroup {

bool allows_every_device(const UnitDevicePolicy& unit) { return unit.policy == "auto" && unit.allow_entries == 0; }

}  // namespace graft::cgroup
