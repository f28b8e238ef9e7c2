// SPDX-License-Identifier: Apache-2.0
// The same hook under crun. Debian 12's crun 1.8.1 may refuse a host whose
// cgroup layout it does not support (this CI machine's v1 hybrid layout); a
// container without any hook tells whether crun runs here at all, and when
// it does not, the case is skipped with crun's own words.
#include <catch2/catch.hpp>

#include "harness/container_checks.hpp"
#include "skip.hpp"

using namespace graft::e2e;

TEST_CASE("crun with cgroup v1 gives a container exactly the planned GPU 1, libraries and procfs view",
          "[e2e][crun][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::crun, CgroupMode::v1);
  if (auto why = crun_refusal(); !why.empty()) {
    GRAFT_SKIP(why);
  }
  auto container = run_probed_container(Runtime::crun, CgroupMode::v1, gpu1_compute_utility());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
}
