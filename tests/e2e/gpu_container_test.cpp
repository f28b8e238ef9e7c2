// SPDX-License-Identifier: Apache-2.0
// graft as runc's prestart hook gives a busybox container exactly what
// `graft plan` printed for it, in cgroup v1 and in cgroup v2 mode. Each case
// runs once per mode (GENERATE; a failure names the mode), starting one
// container asking for GPU 1 with compute and utility, whose script
// (generated from the plan) reports what it sees from inside.
#include <catch2/catch.hpp>

#include "harness/container_checks.hpp"

using namespace graft::e2e;

namespace {

ProbedContainer gpu1_container(CgroupMode mode) {
  auto container = run_probed_container(Runtime::runc, mode, gpu1_compute_utility());
  require_ran_cleanly(container);
  return container;
}

}  // namespace

TEST_CASE("runc in either cgroup mode: GPU 1's node and the control nodes open, GPU 0 stays denied even when made by hand",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_gpu1_devices(gpu1_container(mode));
}

TEST_CASE("runc in either cgroup mode: the planned driver libraries are read-only, their links resolve, ldconfig finds libcuda.so.1",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_planned_libraries(gpu1_container(mode));
}

TEST_CASE("runc in either cgroup mode: /proc/driver/nvidia shows only GPU 1 and ModifyDeviceFiles: 0",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_gpu1_procfs(gpu1_container(mode));
}

TEST_CASE("runc in either cgroup mode: the container has every target graft plan printed and no other NVIDIA node or library",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_exactly_the_plan(gpu1_container(mode));
}
