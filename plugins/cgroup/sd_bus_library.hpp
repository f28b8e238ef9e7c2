// SPDX-License-Identifier: Apache-2.0
// libsystemd's sd-bus, loaded with dlopen only when a container's cgroup is
// a systemd unit: the hook links nothing but glibc (docs/performance.md),
// and most containers never need a bus. The table holds exactly the calls
// systemd_scope.cpp and unit_object_path.cpp make; the prototypes come from
// <systemd/sd-bus.h>.
#pragma once

#include <systemd/sd-bus.h>

#include "graft/base/error.hpp"

namespace graft::cgroup {

struct SdBusLibrary {
  decltype(&::sd_bus_new) bus_new = nullptr;
  decltype(&::sd_bus_set_address) set_address = nullptr;
  decltype(&::sd_bus_start) start = nullptr;
  decltype(&::sd_bus_open_system) open_system = nullptr;
  decltype(&::sd_bus_flush_close_unref) close = nullptr;
  decltype(&::sd_bus_message_new_method_call) new_method_call = nullptr;
  decltype(&::sd_bus_message_append) append = nullptr;
  decltype(&::sd_bus_message_open_container) open_container = nullptr;
  decltype(&::sd_bus_message_close_container) close_container = nullptr;
  decltype(&::sd_bus_message_unref) message_unref = nullptr;
  decltype(&::sd_bus_message_read) read = nullptr;
  decltype(&::sd_bus_message_enter_container) enter_container = nullptr;
  decltype(&::sd_bus_call) call = nullptr;
  decltype(&::sd_bus_get_property) get_property = nullptr;
  decltype(&::sd_bus_path_encode) path_encode = nullptr;
  decltype(&::sd_bus_error_free) error_free = nullptr;
  decltype(&::sd_bus_error_has_name) error_has_name = nullptr;
};

// The process's one copy, loaded on first use and never unloaded (the
// library keeps state of its own); an error names the file or symbol.
Result<const SdBusLibrary*> sd_bus_library();

}  // namespace graft::cgroup
