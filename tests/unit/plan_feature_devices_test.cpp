// SPDX-License-Identifier: Apache-2.0
// Whole-pipeline tests for the feature-gated devices (the shipped policy's
// feature_devices.lua and its fixed and glob device classes) on a fake host
// that has every such node: NVIDIA_GDS, NVIDIA_MOFED, NVIDIA_NVSWITCH and
// NVIDIA_GDRCOPY set to "enabled", and the policy's trust setting.
#include <algorithm>

#include "plan_support.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

fixture::FakeHostSpec feature_spec() {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_feature_nodes = true;
  return spec;
}

const PlannedHost& feature_host() {
  static PlannedHost host = PlannedHost::make(feature_spec());
  return host;
}

Plan feature_plan_gpu0(const PlannedHost& host, const std::string& name, const std::string& value,
               bool privileged = false) {
  return host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {name, value}}, privileged);
}

bool feature_node_planned(const Plan& plan, const std::string& path) {
  return has_target(plan, ActionKind::device_node, path);
}

const char* const kFakeFeatureNodes[] = {"/dev/nvidia-fs0",        "/dev/nvidia-fs1",      "/dev/infiniband/uverbs0",
                                     "/dev/infiniband/rdma_cm", "/dev/nvidia-nvswitchctl", "/dev/nvidia-nvswitch0",
                                     "/dev/gdrdrv"};

}  // namespace

TEST_CASE("NVIDIA_GDS=enabled brings every /dev/nvidia-fs* node with its cgroup rule", "[plan][features]") {
  const auto& host = feature_host();
  if (!nodes_available(host)) return;
  Plan plan = feature_plan_gpu0(host, "NVIDIA_GDS", "enabled");
  const Action* fs1 = find_action(plan, ActionKind::device_node, "/dev/nvidia-fs1");
  REQUIRE(fs1);
  CHECK(fs1->provenance.capability == "gds");
  CHECK(fs1->provenance.reason == "NVIDIA_GDS=enabled");
  CHECK(feature_node_planned(plan, "/dev/nvidia-fs0"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 506:1"));
  CHECK_FALSE(feature_node_planned(plan, "/dev/gdrdrv"));
}

TEST_CASE("NVIDIA_MOFED=enabled brings the uverbs nodes and rdma_cm", "[plan][features]") {
  const auto& host = feature_host();
  if (!nodes_available(host)) return;
  Plan plan = feature_plan_gpu0(host, "NVIDIA_MOFED", "enabled");
  CHECK(feature_node_planned(plan, "/dev/infiniband/uverbs0"));
  CHECK(feature_node_planned(plan, "/dev/infiniband/rdma_cm"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 506:11"));
}

TEST_CASE("NVIDIA_NVSWITCH=enabled brings nvidia-nvswitchctl and every nvidia-nvswitch node", "[plan][features]") {
  const auto& host = feature_host();
  if (!nodes_available(host)) return;
  Plan plan = feature_plan_gpu0(host, "NVIDIA_NVSWITCH", "enabled");
  CHECK(feature_node_planned(plan, "/dev/nvidia-nvswitchctl"));
  CHECK(feature_node_planned(plan, "/dev/nvidia-nvswitch0"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 510:255"));
}

TEST_CASE("NVIDIA_GDRCOPY=enabled brings /dev/gdrdrv", "[plan][features]") {
  const auto& host = feature_host();
  if (!nodes_available(host)) return;
  Plan plan = feature_plan_gpu0(host, "NVIDIA_GDRCOPY", "enabled");
  CHECK(feature_node_planned(plan, "/dev/gdrdrv"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 506:20"));
}

TEST_CASE("a feature variable set to anything but 'enabled' brings no feature node, with a note", "[plan][features]") {
  Plan plan = feature_plan_gpu0(feature_host(), "NVIDIA_GDS", "true");
  for (const char* node : kFakeFeatureNodes) CHECK_FALSE(feature_node_planned(plan, node));
  auto& notes = plan.intent.request_notes;
  CHECK(std::any_of(notes.begin(), notes.end(),
                    [](const std::string& n) { return n.find("NVIDIA_GDS='true'") != std::string::npos; }));
}

TEST_CASE("without a GPU request, NVIDIA_GDS=enabled brings nothing", "[plan][features]") {
  Plan plan = feature_host().plan({{"NVIDIA_GDS", "enabled"}});
  CHECK_FALSE(plan.inject);
  CHECK(plan.actions.empty());
}

TEST_CASE("a feature whose unprivileged setting is false is kept from unprivileged containers only",
          "[plan][features]") {
  static PlannedHost host =
      PlannedHost::make(feature_spec(), "[data.feature_devices.gdrcopy]\nunprivileged = false\n");
  if (!nodes_available(host)) return;
  CHECK_FALSE(feature_node_planned(feature_plan_gpu0(host, "NVIDIA_GDRCOPY", "enabled"), "/dev/gdrdrv"));
  CHECK(feature_node_planned(feature_plan_gpu0(host, "NVIDIA_GDRCOPY", "enabled", /*privileged=*/true), "/dev/gdrdrv"));
}

TEST_CASE("a feature enabled on a host without its nodes gives a plan warning, not an error", "[plan][features]") {
  static PlannedHost host = PlannedHost::make(1);
  Plan plan = feature_plan_gpu0(host, "NVIDIA_GDS", "enabled");
  REQUIRE_FALSE(plan.intent.refusal);
  CHECK_FALSE(feature_node_planned(plan, "/dev/nvidia-fs0"));
  CHECK(std::any_of(plan.warnings.begin(), plan.warnings.end(),
                    [](const std::string& w) { return w.find("/dev/nvidia-fs*") != std::string::npos; }));
}

TEST_CASE("a host with the feature nodes gives none of them to a container that did not enable them",
          "[plan][features]") {
  Plan plan = feature_host().plan({{"NVIDIA_VISIBLE_DEVICES", "0"}});
  for (const char* node : kFakeFeatureNodes) CHECK_FALSE(feature_node_planned(plan, node));
}
