// SPDX-License-Identifier: Apache-2.0
// `graft cdi generate` for device classes only rules grant (grant:add_node):
// each node of a per-minor class the host has becomes CDI device
// "<class>-<minor>" (IMEX channels: "imex-channel-0"), each fixed or glob
// class with nodes on the host becomes device "<class>" ("gds"). Run on the
// fake host with the shipped policy.
#include <algorithm>

#include "cdi/cdi_spec.hpp"
#include "plan_support.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const cdi::SpecRequest kNodeSpecRequest{"nvidia.com/gpu", std::nullopt, "/usr/bin/graft", "/etc/graft/graft.toml"};

cdi::Spec node_spec_for(const PlannedHost& host) {
  auto inventory = discover_inventory(host.policy);
  if (!inventory) FAIL(inventory.error().message);
  auto spec = cdi::generate_spec(*inventory, host.policy, kNodeSpecRequest);
  if (!spec) FAIL(spec.error().message);
  return *spec;
}

const cdi::SpecDevice* find_node_device(const cdi::Spec& spec, const std::string& name) {
  auto found = std::find_if(spec.devices.begin(), spec.devices.end(),
                            [&](const cdi::SpecDevice& device) { return device.name == name; });
  return found == spec.devices.end() ? nullptr : &*found;
}

std::vector<std::string> node_device_paths(const cdi::SpecDevice& device) {
  std::vector<std::string> paths;
  for (const auto& node : device.edits.device_nodes) paths.push_back(node.path);
  return paths;
}

}  // namespace

TEST_CASE("cdi generate makes one device per IMEX channel node the host has, holding only that node", "[cdi][imex]") {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.imex_channels = {0, 3};
  static PlannedHost host = PlannedHost::make(spec);
  if (!nodes_available(host)) return;
  auto generated = node_spec_for(host);
  const auto* channel3 = find_node_device(generated, "imex-channel-3");
  REQUIRE(channel3);
  CHECK(node_device_paths(*channel3) == std::vector<std::string>{"/dev/nvidia-caps-imex-channels/channel3"});
  CHECK(channel3->edits.device_nodes.at(0).minor == 3);
  CHECK(find_node_device(generated, "imex-channel-0"));
  CHECK_FALSE(find_node_device(generated, "imex-channel-1"));
}

TEST_CASE("cdi generate makes a device per feature with nodes on the host", "[cdi][features]") {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_feature_nodes = true;
  static PlannedHost host = PlannedHost::make(spec);
  if (!nodes_available(host)) return;
  auto generated = node_spec_for(host);
  const auto* gds = find_node_device(generated, "gds");
  REQUIRE(gds);
  CHECK(node_device_paths(*gds) == std::vector<std::string>{"/dev/nvidia-fs0", "/dev/nvidia-fs1"});
  for (const char* name : {"mofed-uverbs", "mofed-rdma-cm", "nvswitch", "gdrcopy"}) CHECK(find_node_device(generated, name));
}

TEST_CASE("cdi generate on a host without IMEX channels or feature nodes makes no such devices", "[cdi][imex]") {
  static PlannedHost host = PlannedHost::make(1);
  auto generated = node_spec_for(host);
  for (const auto& device : generated.devices) {
    CHECK_FALSE(device.name.starts_with("imex-channel"));
    CHECK(device.name != "gds");
    CHECK(device.name != "gdrcopy");
  }
}

TEST_CASE("cdi generate makes a DRM card and render device per GPU that has them", "[cdi][drm]") {
  auto spec = fixture::FakeHostSpec::with_gpus(2);
  spec.with_drm = true;
  static PlannedHost host = PlannedHost::make(spec);
  if (!nodes_available(host)) return;
  auto generated = node_spec_for(host);
  const auto* card1 = find_node_device(generated, "dri-card-1");
  REQUIRE(card1);
  CHECK(node_device_paths(*card1) == std::vector<std::string>{"/dev/dri/" + fixture::fake_drm_card(1)});
  const auto* render0 = find_node_device(generated, "dri-render-0");
  REQUIRE(render0);
  CHECK(node_device_paths(*render0) == std::vector<std::string>{"/dev/dri/" + fixture::fake_drm_render(0)});
}
