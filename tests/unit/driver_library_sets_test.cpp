// SPDX-License-Identifier: Apache-2.0
// The libraries and loader files recent drivers added, planned on the fake
// host: each in the capability set the NVIDIA toolkit mounts it with, and a
// name the host lacks (the fake host has no libnvidia-egl-xlib) a warning
// rather than an error.
#include "plan_support.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const PlannedHost& one_gpu_host() {
  static PlannedHost host = PlannedHost::make(1);
  return host;
}

bool warns_about(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& warning : warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("compute mounts the legacy NVVM library and the OpenCL ICD file", "[plan][libraries]") {
  const auto& host = one_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute"}});
  CHECK(mounts_file(plan, "libnvidia-nvvm70.so.560.35.03"));
  CHECK(mounts_file(plan, "libnvidia-tileiras.so.560.35.03"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/etc/OpenCL/vendors/nvidia.icd"));
  CHECK_FALSE(mounts_file(plan, "libnvidia-present.so.560.35.03"));
}

TEST_CASE("graphics mounts the newer EGL platform libraries, their JSON and the Vulkan present library",
          "[plan][libraries]") {
  const auto& host = one_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "graphics"}});
  CHECK(mounts_file(plan, "libnvidia-egl-wayland2.so.560.35.03"));
  CHECK(mounts_file(plan, "libnvidia-egl-xcb.so.560.35.03"));
  CHECK(mounts_file(plan, "libnvidia-present.so.560.35.03"));
  CHECK(has_target(plan, ActionKind::bind_mount,
                   "/usr/share/egl/egl_external_platform.d/09_nvidia_wayland2.json"));
  CHECK_FALSE(mounts_file(plan, "libnvidia-nvvm70.so.560.35.03"));
}

TEST_CASE("a graphics library the host lacks is a warning, not a refusal", "[plan][libraries]") {
  const auto& host = one_gpu_host();
  if (!nodes_available(host)) return;
  auto evaluation = host.evaluate({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "graphics"}});
  REQUIRE(evaluation);
  const Plan& plan = evaluation->plan;
  CHECK(plan.inject);
  CHECK_FALSE(plan.intent.refusal);
  CHECK_FALSE(mounts_file(plan, "libnvidia-egl-xlib.so.560.35.03"));
  // Discovery's warning (`graft inventory` shows it; the hook logs it).
  CHECK(warns_about(evaluation->inventory.warnings, "library libnvidia-egl-xlib.so not found"));
}
