// SPDX-License-Identifier: Apache-2.0
// NVIDIA_REQUIRE_* arch and brand terms end to end: the fake host's GPUs are
// "NVIDIA H100 80GB HBM3", which the shipped policy's model tables make
// arch 9.0, brand nvidia. A requirement they do not meet keeps runc from
// starting the container, with the refusal on its stderr; one they meet
// starts it with its GPU.
#include <catch2/catch.hpp>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kStarted = "graft-e2e-requirements-started";

}  // namespace

TEST_CASE("an arch requirement beyond the fake H100's compute capability keeps the container from starting",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  // Started by hand: run_probed_container plans first, and this plan is a refusal.
  BundleSpec spec = gpu1_compute_utility();
  spec.env.push_back("NVIDIA_REQUIRE_ARCH=arch>=10.0");
  spec.args = {"/bin/sh", "-c", std::string("echo ") + kStarted};
  spec.hook_policy = gpu_host().policy;
  std::string id = unique_container_id("runc-v1-arch");
  spec.cgroups_path = "/" + id;
  OciBundle bundle(spec);
  Container container(Runtime::runc, CgroupMode::v1, id);
  auto run = container.run(bundle.path());
  INFO("runtime stderr: " << run.err);
  INFO("container output: " << run.out);
  CHECK(run.exit_code != 0);
  CHECK(run.out.find(kStarted) == std::string::npos);
  CHECK_THAT(run.err, Catch::Contains("unsatisfied condition: arch>=10.0"));
}

TEST_CASE("arch and brand requirements the fake H100 meets start the container with its GPU",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.env.push_back("NVIDIA_REQUIRE_ARCH=arch>=9.0,brand=nvidia");
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  check_gpu1_devices(container);
}
