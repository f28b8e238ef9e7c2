// SPDX-License-Identifier: Apache-2.0
// `runc update` of a running GPU container (runc's cgroupfs driver, the
// container's cgroup written by runc itself) leaves the device rules graft
// added alone: runc skips devices on update, so that rules a hook added
// survive (runc 1.0 and later). A regression test, in either cgroup mode;
// under the systemd driver, systemd_reload_test.cpp has the same check.
#include <catch2/catch.hpp>

#include "harness/device_access.hpp"
#include "harness/gpu_host.hpp"
#include "harness/probed_container.hpp"

using namespace graft::e2e;

TEST_CASE("runc update of a running GPU container keeps GPU 1 open and GPU 0 refused, in either cgroup mode",
          "[e2e][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  BundleSpec spec = gpu1_compute_utility();
  spec.args = {"/bin/sleep", "120"};
  spec.hook_policy = gpu_host().policy;
  std::string id = unique_container_id("update");
  spec.cgroups_path = "/" + id;
  OciBundle bundle(spec);
  Container container(Runtime::runc, mode, id);
  auto started = container.run_detached(bundle.path());
  INFO("runc run -d: " << started.err);
  REQUIRE(started.exit_code == 0);
  auto open = [&](const std::string& node) { return open_node_outcome(container.exec(open_node_command(node))); };
  REQUIRE(open("/dev/nvidia1") == kENXIO);
  auto gpu0 = fake_gpu0_node();
  auto made = container.exec(mknod_command(gpu0));
  INFO("mknod: " << made.err);
  REQUIRE(made.exit_code == 0);
  REQUIRE(open(gpu0.path) == kEPERM);

  auto options = runc_update_options(has_memory_controller(mode));
  auto updated = container.update(options);
  INFO("runc update " << (options.empty() ? "(no options)" : options[0]) << ": " << updated.err);
  REQUIRE(updated.exit_code == 0);
  CHECK(open("/dev/nvidia1") == kENXIO);
  CHECK(open("/dev/nvidiactl") == kENXIO);
  CHECK(open(gpu0.path) == kEPERM);
}
