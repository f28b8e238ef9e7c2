// SPDX-License-Identifier: Apache-2.0
// One host with NVIDIA and AMD GPUs: graft as runc's prestart hook under a
// site policy that includes both vendor policies gives a busybox container
// the vendors it asked for and nothing of the other, in cgroup v1 and v2
// mode. The container's script, generated from the plan, reports what it
// sees from inside; the device cgroup is attacked with a node made by hand.
#include <catch2/catch.hpp>

#include <set>

#include "harness/amd_container_checks.hpp"
#include "harness/amd_host.hpp"
#include "harness/container_checks.hpp"
#include "harness/device_access.hpp"
#include "harness/gpu_host.hpp"
#include "harness/two_vendor_host.hpp"

using namespace graft::e2e;

namespace {

ProbedContainer two_vendor_container(CgroupMode mode, const std::vector<std::string>& env) {
  return run_probed_container(Runtime::runc, mode, two_vendor_bundle(env), two_vendor_device_probes());
}

std::set<std::string> node_set(const std::vector<std::string>& list) { return {list.begin(), list.end()}; }

// The nodes in /dev are exactly the planned ones, and the hook applied that plan.
void check_dev_holds_the_plan(const ProbedContainer& container) {
  check_planned_targets_exist(container);
  CHECK(node_set(container.report.subjects("devls")) == node_set(planned_targets(container.plan, "device_node")));
  check_applied_the_plan(container, two_vendor_audit_records(container.id, "applied"));
}

}  // namespace

TEST_CASE("runc in either cgroup mode on a host of two vendors: AMD_VISIBLE_DEVICES=1 gets /dev/kfd and renderD129 "
          "and nothing of NVIDIA's",
          "[e2e][vendor][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(two_vendor_host_skip_reason());
  auto container = two_vendor_container(mode, {"AMD_VISIBLE_DEVICES=1"});
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_dev_holds_the_plan(container);
  CHECK(node_set(planned_targets(container.plan, "device_node")) ==
        std::set<std::string>{"/dev/kfd", "/dev/dri/renderD129"});
  check_opens_past_the_cgroup(container, "/dev/kfd", two_vendor_host().kfd_major);
  check_opens_past_the_cgroup(container, "/dev/dri/renderD129", graft::fixture::kFakeDrmMajor);
  for (const char* absent : {"/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia1", "/dev/dri/renderD128"})
    CHECK(container.report.open_result(absent) == kENOENT);
  CHECK(container.report.open_result("made:/dev/dri/renderD128") == kEPERM);
  CHECK(container.report.subjects("libls").empty());
}

TEST_CASE("runc in either cgroup mode on a host of two vendors: asking both vendors for GPU 0 gets nvidia0 and "
          "renderD128, each vendor's base, and neither GPU 1",
          "[e2e][vendor][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(two_vendor_host_skip_reason());
  auto container = two_vendor_container(mode, {"NVIDIA_VISIBLE_DEVICES=0", "AMD_VISIBLE_DEVICES=0"});
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_dev_holds_the_plan(container);
  auto planned = node_set(planned_targets(container.plan, "device_node"));
  for (const char* node : {"/dev/nvidia0", "/dev/nvidiactl", "/dev/kfd", "/dev/dri/renderD128"}) {
    CAPTURE(node);
    CHECK(planned.count(node) == 1);
  }
  check_opens_past_the_cgroup(container, "/dev/nvidia0", 195);
  check_opens_past_the_cgroup(container, "/dev/kfd", two_vendor_host().kfd_major);
  check_opens_past_the_cgroup(container, "/dev/dri/renderD128", graft::fixture::kFakeDrmMajor);
  CHECK(container.report.open_result("/dev/nvidia1") == kENOENT);
  CHECK(container.report.open_result("/dev/dri/renderD129") == kENOENT);
  CHECK_FALSE(container.report.subjects("libls").empty());
}

TEST_CASE("runc in either cgroup mode on a host of two vendors: NVIDIA_VISIBLE_DEVICES=1 gets no /dev/kfd and no "
          "AMD render node",
          "[e2e][vendor][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(two_vendor_host_skip_reason());
  auto container = two_vendor_container(mode, {"NVIDIA_VISIBLE_DEVICES=1"});
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_dev_holds_the_plan(container);
  check_opens_past_the_cgroup(container, "/dev/nvidia1", 195);
  for (const char* absent : {"/dev/kfd", "/dev/dri/renderD128", "/dev/dri/renderD129", "/dev/nvidia0"})
    CHECK(container.report.open_result(absent) == kENOENT);
  CHECK(container.report.open_result("made:/dev/dri/renderD128") == kEPERM);
}
