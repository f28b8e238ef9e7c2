// SPDX-License-Identifier: Apache-2.0
// Loading libsystemd's sd-bus on demand (sd_bus_library.hpp).
#include "sd_bus_library.hpp"

#include <dlfcn.h>

namespace graft::cgroup {
namespace {

constexpr const char* kLibrary = "libsystemd.so.0";

template <typename F>
Status bind(void* handle, const char* name, F& slot) {
  slot = reinterpret_cast<F>(::dlsym(handle, name));
  if (slot == nullptr) return make_error("{}: no symbol {}", kLibrary, name);
  return ok_status();
}

Result<SdBusLibrary> load() {
  // RTLD_LOCAL: nothing of libsystemd's joins the plugin's or graft's symbols.
  void* handle = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return make_error("cannot load {}: {}", kLibrary, ::dlerror());
  SdBusLibrary lib;
  for (auto status : {bind(handle, "sd_bus_new", lib.bus_new), bind(handle, "sd_bus_set_address", lib.set_address),
                      bind(handle, "sd_bus_start", lib.start), bind(handle, "sd_bus_open_system", lib.open_system),
                      bind(handle, "sd_bus_flush_close_unref", lib.close),
                      bind(handle, "sd_bus_message_new_method_call", lib.new_method_call),
                      bind(handle, "sd_bus_message_append", lib.append),
                      bind(handle, "sd_bus_message_open_container", lib.open_container),
                      bind(handle, "sd_bus_message_close_container", lib.close_container),
                      bind(handle, "sd_bus_message_unref", lib.message_unref),
                      bind(handle, "sd_bus_message_read", lib.read),
                      bind(handle, "sd_bus_message_enter_container", lib.enter_container),
                      bind(handle, "sd_bus_call", lib.call), bind(handle, "sd_bus_get_property", lib.get_property),
                      bind(handle, "sd_bus_path_encode", lib.path_encode),
                      bind(handle, "sd_bus_error_free", lib.error_free),
                      bind(handle, "sd_bus_error_has_name", lib.error_has_name)})
    if (!status.ok()) return status.error();
  return lib;
}

}  // namespace

Result<const SdBusLibrary*> sd_bus_library() {
  static const Result<SdBusLibrary> loaded = load();
  if (!loaded.ok()) return loaded.error();
  return &*loaded;
}

}  // namespace graft::cgroup
