// SPDX-License-Identifier: Apache-2.0
// make_plan, called directly: when a plan is empty or an error, and the
// device nodes, cgroup rules and partition files that granted GPUs, sets and
// extras yield. Every input is built in code (tests/support/planning_inputs.hpp):
// no fake host on disk, no root.
#include <catch2/catch.hpp>

#include "plan/planner.hpp"
#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;

namespace {

Result<Plan> try_plan(const Inventory& inventory, const Intent& intent,
                      const Policy& policy = planning_policy()) {
  return make_plan(audit_request(), inventory, policy, intent);
}

// GPU 0 with one partition (gi 2, ci 0) whose capability minors are 21 and 22.
InventoryBuilder partitioned_host() {
  auto host = planning_host();
  host.partition(0, 2, 0, 21, 22)
      .node("/dev/gpu-caps/cap21", 511, 21)
      .node("/dev/gpu-caps/cap22", 511, 22);
  return host;
}

Intent granting_partition(unsigned gpu, unsigned partition) {
  Intent intent = granting({}, {});
  intent.devices.push_back({.gpu = gpu, .partition = partition, .reason = {"partition asked for", {}}});
  return intent;
}

// GPU 0's and GPU 1's partition capabilities, plus the config capability.
InventoryBuilder partition_caps_host() {
  auto host = planning_host();
  host.char_major("gpu-caps", 511)
      .partition_cap("config", 1)
      .partition_cap("gpu0/gi1/access", 10)
      .partition_cap("gpu0/gi1/ci0/access", 11)
      .partition_cap("gpu1/gi1/access", 20)
      .node("/dev/gpu-caps/cap1", 511, 1);
  return host;
}

Intent granting_extra(const char* extra) {
  Intent intent = granting({0}, {});
  intent.extras.push_back({extra, {"extra asked for", {}}});
  return intent;
}

}  // namespace

TEST_CASE("an intent that does not inject yields a plan with no actions", "[planner]") {
  Intent intent = granting({0}, {"compute"});
  intent.inject = false;
  Plan plan = planned(planning_host().build(), intent);
  CHECK_FALSE(plan.inject);
  CHECK(plan.actions.empty());
  CHECK(plan.devices.empty());
}

TEST_CASE("a refused intent yields no actions, whatever it grants", "[planner]") {
  Intent intent = granting({0}, {"compute"});
  intent.refusal = Reason{"GPU 9 does not exist", {}};
  Plan plan = planned(planning_host().build(), intent);
  CHECK_FALSE(plan.inject);
  CHECK(plan.actions.empty());
}

TEST_CASE("a refused plan still names the GPUs granted before the refusal, for the auditor", "[planner]") {
  Intent intent = granting({1}, {"compute"});
  intent.refusal = Reason{"lease expired", {}};
  Plan plan = planned(planning_host().build(), intent);
  REQUIRE(plan.devices.size() == 1);
  CHECK(plan.devices[0].index == 1);
  CHECK(plan.devices[0].uuid == "GPU-1");
  CHECK(plan.actions.empty());
}

TEST_CASE("a refused plan that was granted a GPU the host lacks is still a refusal, not an error", "[planner]") {
  Intent intent = granting({0, 9}, {});
  intent.refusal = Reason{"GPU 9 does not exist", {}};
  auto plan = try_plan(planning_host().build(), intent);
  REQUIRE(plan);
  CHECK(plan->devices.size() == 1);
  CHECK(plan->intent.refusal);
}

TEST_CASE("GPUs asked for on a host with no driver loaded are a planning error", "[planner]") {
  auto plan = try_plan(planning_host().driver("").build(), granting({0}, {}));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("no driver is loaded"));
}

TEST_CASE("a grant of a GPU the inventory does not have is a planning error naming it", "[planner]") {
  auto plan = try_plan(planning_host().build(), granting({5}, {}));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("granted GPU 5 does not exist"));
}

TEST_CASE("each granted GPU is recorded with its minor, UUID, bus id and reason", "[planner]") {
  Plan plan = planned(planning_host().build(), granting({1}, {}));
  REQUIRE(plan.devices.size() == 1);
  CHECK(plan.devices[0].index == 1);
  CHECK(plan.devices[0].minor == 1);
  CHECK(plan.devices[0].uuid == "GPU-1");
  CHECK(plan.devices[0].bus_id == "0000:02:00.0");
  CHECK(plan.devices[0].reason.text == "GPU 1 asked for");
}

TEST_CASE("a granted GPU brings its node, found by its minor, and a read-write cgroup rule for it",
          "[planner]") {
  Plan plan = planned(planning_host().build(), granting({1}, {}));
  const Action* node = find_action(plan, ActionKind::device_node, "/dev/gpu1");
  REQUIRE(node);
  CHECK(node->plugin == "devices");
  CHECK(node->source == "/dev/gpu1");
  CHECK(node->major == 195);
  CHECK(node->minor == 1);
  CHECK(node->provenance.capability == "GPU 1");
  const Action* rule = find_action(plan, ActionKind::cgroup_allow, "c 195:1");
  REQUIRE(rule);
  CHECK(rule->access == "rw");
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/gpu0"));
  CHECK_FALSE(has_target(plan, ActionKind::cgroup_allow, "c 195:0"));
}

TEST_CASE("an existing node is bound, one known only from /proc/devices is made with mknod",
          "[planner]") {
  auto host = planning_host();
  host.node("/dev/gpu1", 195, 1, /*exists=*/false);
  Plan plan = planned(host.build(), granting({0, 1}, {}));
  REQUIRE(find_action(plan, ActionKind::device_node, "/dev/gpu0"));
  REQUIRE(find_action(plan, ActionKind::device_node, "/dev/gpu1"));
  CHECK(find_action(plan, ActionKind::device_node, "/dev/gpu0")->options == std::vector<std::string>{"bind"});
  CHECK(find_action(plan, ActionKind::device_node, "/dev/gpu1")->options == std::vector<std::string>{"mknod"});
}

TEST_CASE("every injecting plan brings the nodes of the sets marked always", "[planner]") {
  Plan plan = planned(planning_host().build(), granting({}, {}));
  const Action* control = find_action(plan, ActionKind::device_node, "/dev/gpuctl");
  REQUIRE(control);
  CHECK(control->provenance.capability == "base");
  CHECK(control->provenance.origin.brief() == "test-policy.toml:11");
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 195:255"));
}

TEST_CASE("a set's optional node missing from the host is left out with a warning", "[planner]") {
  InventoryBuilder host;
  host.gpu(0, "0000:01:00.0").node("/dev/gpuctl", 195, 255).node("/dev/gpu0", 195, 0);
  Plan plan = planned(host.build(), granting({0}, {"compute"}));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/gpu-uvm"));
  REQUIRE(plan.warnings.size() == 1);
  CHECK_THAT(plan.warnings[0], Catch::Contains("/dev/gpu-uvm"));
}

TEST_CASE("a set's required node missing from the host is a planning error naming it", "[planner]") {
  InventoryBuilder host;
  host.gpu(0, "0000:01:00.0").node("/dev/gpu0", 195, 0);
  auto plan = try_plan(host.build(), granting({0}, {}));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("required device node /dev/gpuctl"));
}

TEST_CASE("a granted partition brings its GPU's node, its access files read-only and its capability nodes",
          "[planner]") {
  Plan plan = planned(partitioned_host().build(), granting_partition(0, 0));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/gpu0"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/gpu-caps/cap21"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/gpu-caps/cap22"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 511:21"));
  for (const char* file : {"/proc/driver/gpu/gpus/0000:01:00.0/gi2/access",
                           "/proc/driver/gpu/gpus/0000:01:00.0/gi2/ci0/access"}) {
    INFO(file);
    const Action* bind = find_action(plan, ActionKind::bind_mount, file);
    REQUIRE(bind);
    CHECK(bind->plugin == "procfs");
    CHECK(bind->options == std::vector<std::string>{"ro", "nosuid", "nodev", "noexec"});
  }
}

TEST_CASE("a partition's access files are bound at their path inside, not under the host's proc root",
          "[planner]") {
  Policy policy = planning_policy();
  policy.host.proc_root = "/host-proc";
  auto host = planning_host();
  host.gpu(2, "0000:03:00.0", "/host-proc/proc/driver/gpu/gpus").node("/dev/gpu2", 195, 2);
  host.partition(2, 0, 0, 31, 32).node("/dev/gpu-caps/cap31", 511, 31).node("/dev/gpu-caps/cap32", 511, 32);
  Plan plan = planned(host.build(), granting_partition(2, 0), policy);
  const Action* bind = find_action(plan, ActionKind::bind_mount, "/proc/driver/gpu/gpus/0000:03:00.0/gi0/access");
  REQUIRE(bind);
  CHECK(bind->source == "/host-proc/proc/driver/gpu/gpus/0000:03:00.0/gi0/access");
}

TEST_CASE("a partition whose capability node is missing is a planning error naming GPU and partition",
          "[planner]") {
  auto host = planning_host();
  host.partition(0, 2, 0, 21, 22);  // no cap nodes
  auto plan = try_plan(host.build(), granting_partition(0, 0));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("GPU 0 partition 0") && Catch::Contains("/dev/gpu-caps/cap21"));
}

TEST_CASE("a granted partition missing from the capability minors file is a planning error naming the file and key",
          "[planner]") {
  auto host = planning_host();
  host.partition(0, 2, 0);  // the minors file had no line for it, or was missing
  auto plan = try_plan(host.build(), granting_partition(0, 0));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("GPU 0 partition 0 (gi 2 ci 0)") &&
                                       Catch::Contains("'gpu0/gi2/access'") &&
                                       Catch::Contains("/proc/driver/gpu-caps/minors"));
}

TEST_CASE("a granted partition whose compute instance has no capability minor is a planning error naming its key",
          "[planner]") {
  auto host = planning_host();
  host.partition(0, 2, 0, 21).node("/dev/gpu-caps/cap21", 511, 21);
  auto plan = try_plan(host.build(), granting_partition(0, 0));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("'gpu0/gi2/ci0/access'"));
}

TEST_CASE("a grant of a partition the GPU does not have is a planning error", "[planner]") {
  auto plan = try_plan(partitioned_host().build(), granting_partition(0, 3));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("granted partition 3 of GPU 0 does not exist"));
}

TEST_CASE("an extra the policy does not define is a planning error naming it", "[planner]") {
  auto plan = try_plan(partition_caps_host().build(), granting_extra("overclock"));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("extra 'overclock' is not defined"));
}

TEST_CASE("partition-config allows its named capability and every partition capability of the visible GPUs only",
          "[planner]") {
  Plan plan = planned(partition_caps_host().build(), granting_extra("partition-config"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 511:1"));   // config
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 511:10"));  // GPU 0's GI
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 511:11"));  // GPU 0's CI
  CHECK_FALSE(has_target(plan, ActionKind::cgroup_allow, "c 511:20"));  // GPU 1 is not granted
  // Rules only: the container reaches the nodes through the bound directory.
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/gpu-caps/cap1"));
}

TEST_CASE("an extra's capability missing from the host is a planning error naming the extra", "[planner]") {
  auto host = planning_host();
  host.char_major("gpu-caps", 511);
  auto plan = try_plan(host.build(), granting_extra("partition-config"));
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("extra 'partition-config': capability 'config'"));
}

TEST_CASE("an extra's proc directories are bound read-only, its device directories keep their nodes usable",
          "[planner]") {
  Plan plan = planned(partition_caps_host().build(), granting_extra("partition-config"));
  const Action* proc = find_action(plan, ActionKind::bind_mount, "/proc/driver/gpu/capabilities");
  REQUIRE(proc);
  CHECK(proc->options == std::vector<std::string>{"ro", "nosuid", "nodev", "noexec"});
  const Action* dev = find_action(plan, ActionKind::bind_mount, "/dev/gpu-caps");
  REQUIRE(dev);
  CHECK(dev->plugin == "devices");
  CHECK(dev->options == std::vector<std::string>{"ro", "nosuid", "noexec"});
}

TEST_CASE("the planner reads only the image layout from the request: privileged or not, one intent gives one plan",
          "[planner]") {
  Request privileged = audit_request();
  privileged.privileged = true;
  privileged.env = {{"LEGACY_REQUIREMENT", "cuda>=99"}};
  Intent intent = granting({0}, {"compute", "utility"});
  Plan plain = planned(planning_host().build(), intent);
  Plan elevated = planned(planning_host().build(), intent, planning_policy(), privileged);
  REQUIRE_FALSE(plain.actions.empty());
  CHECK(targets(plain, ActionKind::bind_mount) == targets(elevated, ActionKind::bind_mount));
  CHECK(targets(plain, ActionKind::device_node) == targets(elevated, ActionKind::device_node));
  CHECK(targets(plain, ActionKind::cgroup_allow) == targets(elevated, ActionKind::cgroup_allow));
}
