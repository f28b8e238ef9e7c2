// SPDX-License-Identifier: Apache-2.0
// The graft the Debian package installs, used as a hook: what
// tests/scripts/package-test.sh unpacked (`dpkg -x`) into a scratch root,
// named by GRAFT_E2E_INSTALLED_ROOT. Left out of the regular e2e run
// (tests/e2e/CMakeLists.txt), which has no package; the script runs it.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/probed_container.hpp"

namespace graft::e2e {

TEST_CASE("the graft installed from the .deb, with its own policies and plugins, gives a runc container "
          "exactly GPU 1",
          "[package]") {
  const char* root = std::getenv("GRAFT_E2E_INSTALLED_ROOT");
  if (root == nullptr || *root == '\0')
    GRAFT_SKIP("GRAFT_E2E_INSTALLED_ROOT names no installed root (tests/scripts/package-test.sh sets it)");
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.hook_binary = std::string(root) + "/usr/bin/graft";
  spec.hook_policy = write_installed_policy("installed");
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
}

}  // namespace graft::e2e
