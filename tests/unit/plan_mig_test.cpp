// SPDX-License-Identifier: Apache-2.0
// Whole-pipeline tests for GPU partitions (MIG): access to one partition,
// and the privileged management extras.
#include <algorithm>

#include "plan_support.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const PlannedHost& mig_host() {
  static PlannedHost host = PlannedHost::make(2, /*mig=*/true);
  return host;
}

std::string cap_node(unsigned minor) { return "/dev/nvidia-caps/nvidia-cap" + std::to_string(minor); }

}  // namespace

TEST_CASE("a partition brings its parent GPU node, its access files and its cap nodes", "[plan][mig]") {
  const auto& host = mig_host();
  if (!nodes_available(host)) return;
  // Partition index 1 of GPU 0 is (gi 2, ci 0) in the fake host.
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0:1"}});
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidia0"));
  CHECK(has_target(plan, ActionKind::bind_mount,
                   "/proc/driver/nvidia/capabilities/gpu0/mig/gi2/access"));
  CHECK(has_target(plan, ActionKind::bind_mount,
                   "/proc/driver/nvidia/capabilities/gpu0/mig/gi2/ci0/access"));
  CHECK(has_target(plan, ActionKind::device_node, cap_node(fixture::mig_gi_minor(0, 2))));
  CHECK(has_target(plan, ActionKind::device_node, cap_node(fixture::mig_ci_minor(0, 2, 0))));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, cap_node(fixture::mig_gi_minor(0, 1))));
}

TEST_CASE("mig-config for a privileged container allows the config cap and every partition cap",
          "[plan][mig]") {
  const auto& host = mig_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                        /*privileged=*/true);
  REQUIRE_FALSE(plan.intent.refusal);
  auto rules = targets(plan, ActionKind::cgroup_allow);
  auto allowed = [&](unsigned minor) {
    return std::find(rules.begin(), rules.end(), "c 509:" + std::to_string(minor)) != rules.end();
  };
  CHECK(allowed(fixture::kMigConfigMinor));
  CHECK_FALSE(allowed(fixture::kMigMonitorMinor));
  CHECK(allowed(fixture::mig_gi_minor(0, 14)));
  CHECK(allowed(fixture::mig_ci_minor(0, 14, 7)));
  CHECK_FALSE(allowed(fixture::mig_gi_minor(1, 0)));  // GPU 1 is not visible
  CHECK(has_target(plan, ActionKind::bind_mount, "/proc/driver/nvidia/capabilities"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/dev/nvidia-caps"));
}

TEST_CASE("mig-monitor allows the monitor cap only", "[plan][mig]") {
  const auto& host = mig_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                        /*privileged=*/true);
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 509:" + std::to_string(fixture::kMigMonitorMinor)));
  CHECK_FALSE(has_target(plan, ActionKind::cgroup_allow, "c 509:" + std::to_string(fixture::kMigConfigMinor)));
}

TEST_CASE("mig-config in an unprivileged container is refused", "[plan][mig]") {
  const auto& host = mig_host();
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}});
  REQUIRE(plan.intent.refusal);
  CHECK(plan.actions.empty());
}
