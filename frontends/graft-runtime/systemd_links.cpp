// SPDX-License-Identifier: Apache-2.0
// /dev/char links for a spec's devices (systemd_links.hpp).
#include "systemd_links.hpp"

#include "graft/base/device_number_link.hpp"

namespace graft::runtime {

Status link_spec_devices(const std::vector<DeviceNodeEdit>& nodes, const std::string& dev_dir) {
  for (const auto& node : nodes) {
    if (node.host_path.empty()) continue;
    auto linked = link_device_number(dev_dir, node.type, node.major, node.minor, node.host_path);
    if (!linked.ok())
      return linked.error().context(fmt::format("{} would not survive a systemd daemon-reload", node.path));
  }
  return ok_status();
}

}  // namespace graft::runtime
