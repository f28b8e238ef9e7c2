// SPDX-License-Identifier: Apache-2.0
// The D-Bus object path systemd gives a unit, made by sd-bus itself
// (sd_bus_path_encode): systemd names its units' objects with that call, so
// a path built any other way can differ from the one GetUnitByPID answers.
// A hand-made escape once did, for a name starting with a digit
// ("1abc.scope": sd-bus "_31abc_2escope"), and the unit's DeviceAllow= was
// then never told.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "sd_bus_library.hpp"

namespace graft::cgroup {

// "/org/freedesktop/systemd1/unit/<unit as sd-bus escapes a label>".
Result<std::string> unit_object_path(const SdBusLibrary& lib, const std::string& unit);

}  // namespace graft::cgroup
