// SPDX-License-Identifier: Apache-2.0
// /dev/char links for a CDI spec's nodes (device_links.hpp).
#include "cdi/device_links.hpp"

#include "graft/base/device_number_link.hpp"
#include "graft/base/systemd_booted.hpp"

namespace graft::cdi {
namespace {

Status link_nodes(const std::vector<DeviceNodeEdit>& nodes, const std::string& root) {
  for (const auto& node : nodes) {
    if (node.host_path.empty()) continue;
    auto linked = link_device_number(root + "/dev", node.type, node.major, node.minor, root + node.host_path,
                                     node.host_path);
    if (!linked.ok()) return linked.error().context(fmt::format("CDI device node {}", node.path));
  }
  return ok_status();
}

}  // namespace

Status link_spec_device_numbers(const Spec& spec, const std::string& host_root) {
  if (!systemd_booted(host_root)) return ok_status();
  const std::string root = host_root == "/" ? "" : host_root;
  if (auto linked = link_nodes(spec.edits.device_nodes, root); !linked.ok()) return linked;
  for (const auto& device : spec.devices)
    if (auto linked = link_nodes(device.edits.device_nodes, root); !linked.ok()) return linked;
  return ok_status();
}

}  // namespace graft::cdi
