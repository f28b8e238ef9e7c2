// SPDX-License-Identifier: Apache-2.0
// IMEX channels, feature-gated devices and DRM nodes in a real container:
// runc with graft as its prestart hook, on the fake host that has IMEX
// channels 0 and 1, every feature node and each GPU's DRM nodes. A granted node opens as far as the absent
// driver (ENXIO: the device cgroup let it through); a channel that was not
// granted, made by hand in the container, is refused by the cgroup (EPERM).
#include <catch2/catch.hpp>

#include <algorithm>

#include "harness/container_checks.hpp"
#include "harness/device_access.hpp"
#include "harness/gpu_host.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kImexChannel0 = "/dev/nvidia-caps-imex-channels/channel0";
constexpr const char* kImexChannel1 = "/dev/nvidia-caps-imex-channels/channel1";

// The check script, then channel 0 made by hand (major 507, the fake host's
// nvidia-caps-imex-channels) and opened, reported as the script reports.
BundleSpec imex_channel1_bundle() {
  BundleSpec spec = gpu1_compute_utility();
  spec.env.push_back("NVIDIA_IMEX_CHANNELS=1");
  spec.args = {"/bin/sh", "-c",
               "sh /graft-check.sh; mkdir -p /dev/nvidia-caps-imex-channels;"
               " m=$(mknod /dev/nvidia-caps-imex-channels/channel0 c 507 0 2>&1); echo \"mknod|channel0|$?|${m##*: }\";"
               " m=$(cat /dev/nvidia-caps-imex-channels/channel0 2>&1 >/dev/null </dev/null);"
               " echo \"open|made:channel0|$?|${m##*: }\""};
  return spec;
}

}  // namespace

TEST_CASE("runc in either cgroup mode: NVIDIA_IMEX_CHANNELS=1 opens channel 1, and channel 0 made by hand stays denied",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  auto container = run_probed_container(Runtime::runc, mode, imex_channel1_bundle());
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  CHECK(container.report.open_result(kImexChannel1) == kENXIO);
  auto listed = container.report.subjects("devls");
  CHECK(std::find(listed.begin(), listed.end(), kImexChannel0) == listed.end());
  auto made = container.report.find("mknod", "channel0");
  REQUIRE(made);
  CHECK(made->at(0) == "0");
  CHECK(container.report.open_result("made:channel0") == graft::e2e::kEPERM);
}

TEST_CASE("each feature set to enabled brings its nodes, and each opens as far as the absent driver",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  for (const char* name : {"NVIDIA_GDS", "NVIDIA_MOFED", "NVIDIA_NVSWITCH", "NVIDIA_GDRCOPY"})
    spec.env.push_back(std::string(name) + "=enabled");
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  for (const char* node : {"/dev/nvidia-fs0", "/dev/nvidia-fs1", "/dev/infiniband/uverbs0", "/dev/infiniband/rdma_cm",
                           "/dev/nvidia-nvswitchctl", "/dev/nvidia-nvswitch0", "/dev/gdrdrv"}) {
    INFO(node);
    CHECK(container.report.open_result(node) == kENXIO);
  }
}

TEST_CASE("graphics on GPU 1 brings GPU 1's DRM nodes, which the cgroup lets open, and no other GPU's",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec;
  spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=graphics"};
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  // Major 226 is DRM's: ENXIO where no DRM driver is loaded, ENODEV where
  // one is but has no such minor; never EPERM, which the cgroup would give.
  for (const std::string& name : {graft::fixture::fake_drm_card(1), graft::fixture::fake_drm_render(1)}) {
    std::string outcome = container.report.open_result("/dev/dri/" + name);
    INFO(name << ": " << outcome);
    CHECK((outcome == kENXIO || outcome == "No such device"));
  }
  CHECK(container.report.open_result("/dev/dri/" + graft::fixture::fake_drm_card(0)) == "not probed");
  for (const auto& action : container.plan.at("actions"))
    CHECK(action.at("target") != "/dev/dri/" + graft::fixture::fake_drm_card(0));
}

TEST_CASE("an IMEX channel the host has no node for is made in the container and opens as far as the driver",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.env.push_back("NVIDIA_IMEX_CHANNELS=5");
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  const std::string channel5 = "/dev/nvidia-caps-imex-channels/channel5";
  auto node = container.report.find("node", channel5);
  REQUIRE(node);
  CHECK(node->at(1) == "1fb:5");  // 507:5 in hex, as stat prints it
  CHECK(container.report.open_result(channel5) == kENXIO);
}
