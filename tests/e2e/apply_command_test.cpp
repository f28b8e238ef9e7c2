// SPDX-License-Identifier: Apache-2.0
// `graft apply` for runtimes without hooks: a runc container started with no
// graft hook at all gets GPU 1 afterwards, from outside, and a process
// started in it with `runc exec` sees the result.
#include <catch2/catch.hpp>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/host_mounts.hpp"

using namespace graft::e2e;

TEST_CASE("graft apply gives GPU 1 to a running runc container that was started without the hook",
          "[e2e][runc][v1][apply]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  auto& host = gpu_host();
  HostMounts mounts;
  ProbedContainer result{.runtime = Runtime::runc, .mode = CgroupMode::v1,
                         .id = unique_container_id("apply")};
  {
    BundleSpec spec = gpu1_compute_utility();
    spec.args = {"/bin/sleep", "30"};
    spec.cgroups_path = "/" + result.id;
    OciBundle bundle(spec);  // no hook_policy: no hook
    auto planned = graft::testing::run_graft({"--policy", host.policy, "plan", "--bundle",
                                              bundle.path(), "--id", result.id, "--format", "json"});
    REQUIRE(planned.exit_code == 0);
    result.plan = nlohmann::json::parse(planned.out);
    bundle.write_in_rootfs(kProbeScript, probe_script(result.plan), 0755);

    Container container(Runtime::runc, CgroupMode::v1, result.id);
    auto started = container.run_detached(bundle.path());
    INFO("runc run -d: " << started.err);
    REQUIRE(started.exit_code == 0);
    int pid = container.pid();
    REQUIRE(pid > 0);
    auto before = container.exec({"/bin/cat", "/dev/nvidia1"});
    CHECK_THAT(before.err, Catch::Contains("No such file or directory"));

    auto applied = graft::testing::run_graft({"--policy", host.policy, "apply", "--pid",
                                              std::to_string(pid), "--rootfs", "/", "--bundle",
                                              bundle.path(), "--id", result.id});
    INFO("graft apply: " << applied.err);
    REQUIRE(applied.exit_code == 0);

    result.run = container.exec({"/bin/sh", kProbeScript});
    result.report = ProbeReport::parse(result.run.out);
  }
  result.leaked_mounts = mounts.added();
  result.mount_count_change = mounts.count_change();
  require_ran_cleanly(result);
  check_gpu1_devices(result);
  check_exactly_the_plan(result);
}
