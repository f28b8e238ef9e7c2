// SPDX-License-Identifier: Apache-2.0
#include "policy/places.hpp"

namespace graft {

void Places::append(const Places& other) {
  auto add = [](std::vector<Place>& to, const std::vector<Place>& from) { to.insert(to.end(), from.begin(), from.end()); };
  add(device_drivers, other.device_drivers);
  add(devices, other.devices);
  add(sockets, other.sockets);
  add(directories, other.directories);
  add(read_only_directories, other.read_only_directories);
  add(files, other.files);
  add(state_dirs, other.state_dirs);
}

bool Places::empty() const {
  return device_drivers.empty() && devices.empty() && sockets.empty() && directories.empty() &&
         read_only_directories.empty() && files.empty() && state_dirs.empty();
}

}  // namespace graft
