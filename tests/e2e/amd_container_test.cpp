// SPDX-License-Identifier: Apache-2.0
// AMD GPUs through the same hook: graft as runc's prestart hook under a site
// policy that includes the shipped amd policy gives a busybox container on
// the fake AMD host (two GPUs) exactly what `graft plan` printed for it, in
// cgroup v1 and in cgroup v2 mode. Each case runs once per mode (GENERATE;
// a failure names the mode); the container's script, generated from the
// plan, reports what it sees from inside.
#include <catch2/catch.hpp>

#include "harness/amd_container_checks.hpp"
#include "harness/amd_host.hpp"
#include "harness/container_checks.hpp"

using namespace graft::e2e;

namespace {

ProbedContainer amd_container(CgroupMode mode, const std::string& visible) {
  return run_probed_container(Runtime::runc, mode, amd_bundle(visible), amd_device_probes());
}

}  // namespace

TEST_CASE("runc in either cgroup mode: AMD_VISIBLE_DEVICES=1 opens /dev/kfd and renderD129, and GPU 0's renderD128 "
          "stays denied even when made by hand",
          "[e2e][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  auto container = amd_container(mode, "1");
  require_ran_cleanly(container);
  check_amd_gpu1_planned(container);
  check_amd_gpu1_devices(container);
}

TEST_CASE("runc in either cgroup mode: an AMD_VISIBLE_DEVICES=1 container has every target graft plan printed and "
          "no other AMD node, and the hook applied that plan",
          "[e2e][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  auto container = amd_container(mode, "1");
  require_ran_cleanly(container);
  check_exactly_the_planned_amd_targets(container);
  check_applied_the_plan(container, amd_audit_records(container.id, "applied"));
}

TEST_CASE("runc in either cgroup mode: AMD_VISIBLE_DEVICES=none gives /dev/kfd alone, no render node",
          "[e2e][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  check_kfd_alone(amd_container(mode, "none"));
}

TEST_CASE("runc in either cgroup mode: a container without AMD_VISIBLE_DEVICES, or with void, gets no /dev/kfd "
          "and no render node",
          "[e2e][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  const std::string visible = GENERATE(std::string(), std::string("void"));
  INFO("AMD_VISIBLE_DEVICES: " << (visible.empty() ? "unset" : visible));
  check_given_no_amd_gpu(amd_container(mode, visible));
}

TEST_CASE("runc in either cgroup mode: a site that lists amd-host-rocm gives an AMD container the host's ROCm "
          "libraries, read-only and in its ld.so.cache, beside its GPU's nodes",
          "[e2e][amd][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason(amd_rocm_host()));
  auto container = run_probed_container(Runtime::runc, mode, amd_bundle("1", amd_rocm_host()), amd_device_probes());
  require_ran_cleanly(container);
  check_host_rocm_libraries(container);
  check_amd_gpu1_devices(container);
  check_applied_the_plan(container, amd_audit_records(container.id, "applied", amd_rocm_host()));
}
