// SPDX-License-Identifier: Apache-2.0
// Whole-pipeline tests for DRM nodes (the shipped policy's per-GPU sysfs
// classes dri-card and dri-render, listed by the graphics and display
// capability sets) on a fake host whose GPUs have DRM nodes found through
// sysfs by bus id: GPU i has /dev/dri/card<50+i> and renderD<178+i>.
#include <algorithm>

#include "plan_support.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

fixture::FakeHostSpec drm_spec(bool mig = false) {
  auto spec = fixture::FakeHostSpec::with_gpus(2, mig);
  spec.with_drm = true;
  return spec;
}

const PlannedHost& drm_host() {
  static PlannedHost host = PlannedHost::make(drm_spec());
  return host;
}

std::string drm_card(unsigned gpu) { return "/dev/dri/" + fixture::fake_drm_card(gpu); }
std::string drm_render(unsigned gpu) { return "/dev/dri/" + fixture::fake_drm_render(gpu); }

Plan drm_plan(const PlannedHost& host, const std::string& devices, const std::string& capabilities) {
  return host.plan({{"NVIDIA_VISIBLE_DEVICES", devices}, {"NVIDIA_DRIVER_CAPABILITIES", capabilities}});
}

}  // namespace

TEST_CASE("graphics brings the granted GPU's DRM card and render nodes and not another GPU's", "[plan][drm]") {
  const auto& host = drm_host();
  if (!nodes_available(host)) return;
  Plan plan = drm_plan(host, "1", "graphics");
  const Action* card = find_action(plan, ActionKind::device_node, drm_card(1));
  REQUIRE(card);
  CHECK(card->major == 226);
  CHECK(card->minor == 51);
  CHECK(card->provenance.capability == "graphics");
  CHECK_THAT(card->provenance.reason, Catch::Contains("GPU 1"));
  CHECK(has_target(plan, ActionKind::device_node, drm_render(1)));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 226:51"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 226:179"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_card(0)));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_render(0)));
}

TEST_CASE("display brings the granted GPU's DRM nodes too", "[plan][drm]") {
  const auto& host = drm_host();
  if (!nodes_available(host)) return;
  Plan plan = drm_plan(host, "0", "display");
  CHECK(has_target(plan, ActionKind::device_node, drm_card(0)));
  CHECK(has_target(plan, ActionKind::device_node, drm_render(0)));
}

TEST_CASE("compute and utility bring no DRM node", "[plan][drm]") {
  Plan plan = drm_plan(drm_host(), "all", "compute,utility");
  for (unsigned gpu : {0u, 1u}) {
    CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_card(gpu)));
    CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_render(gpu)));
  }
}

TEST_CASE("a graphics request for a MIG partition brings its GPU's DRM nodes", "[plan][drm][mig]") {
  static PlannedHost host = PlannedHost::make(drm_spec(/*mig=*/true));
  if (!nodes_available(host)) return;
  Plan plan = drm_plan(host, "1:0", "graphics");
  REQUIRE_FALSE(plan.intent.refusal);
  CHECK(has_target(plan, ActionKind::device_node, drm_card(1)));
  CHECK(has_target(plan, ActionKind::device_node, drm_render(1)));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_card(0)));
}

TEST_CASE("a GPU whose bus id the driver prints in upper case still finds its lower-case sysfs entry",
          "[plan][drm]") {
  auto spec = drm_spec();
  spec.gpus[1].bus_id = "0000:3B:00.0";
  static PlannedHost host = PlannedHost::make(spec);
  if (!nodes_available(host)) return;
  CHECK(has_target(drm_plan(host, "1", "graphics"), ActionKind::device_node, drm_card(1)));
}

TEST_CASE("without DRM entries in sysfs, the /dev/dri/by-path links find the GPU's nodes", "[plan][drm]") {
  auto spec = drm_spec();
  spec.drm_in_sysfs = false;
  static PlannedHost host = PlannedHost::make(spec);
  if (!nodes_available(host)) return;
  Plan plan = drm_plan(host, "1", "graphics");
  CHECK(has_target(plan, ActionKind::device_node, drm_card(1)));
  CHECK(has_target(plan, ActionKind::device_node, drm_render(1)));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, drm_card(0)));
}

TEST_CASE("graphics on a host without DRM nodes warns in the plan and still starts", "[plan][drm]") {
  static PlannedHost host = PlannedHost::make(1);
  Plan plan = drm_plan(host, "0", "graphics");
  REQUIRE_FALSE(plan.intent.refusal);
  CHECK(std::any_of(plan.warnings.begin(), plan.warnings.end(),
                    [](const std::string& w) { return w.find("GPU 0 has no dri-card node") != std::string::npos; }));
}
