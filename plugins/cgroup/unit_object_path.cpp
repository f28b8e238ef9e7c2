// SPDX-License-Identifier: Apache-2.0
// A unit's object path, by sd-bus (unit_object_path.hpp).
#include "unit_object_path.hpp"

#include <cerrno>
#include <cstdlib>
#include <memory>

namespace graft::cgroup {

Result<std::string> unit_object_path(const SdBusLibrary& lib, const std::string& unit) {
  char* encoded = nullptr;
  int r = lib.path_encode("/org/freedesktop/systemd1/unit", unit.c_str(), &encoded);
  std::unique_ptr<char, decltype(&std::free)> owned(encoded, &std::free);  // sd-bus allocates with malloc
  if (r < 0 || encoded == nullptr) return make_sys_error(r < 0 ? -r : ENOMEM, "encoding {}'s D-Bus object path", unit);
  return std::string(encoded);
}

}  // namespace graft::cgroup
