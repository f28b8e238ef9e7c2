// SPDX-License-Identifier: Apache-2.0
// One end-to-end run: build a bundle, print its plan with `graft plan`,
// generate the check script from that plan, start the container with graft
// as its prestart hook, and collect what the script saw, whether the runtime
// succeeded, and whether a mount leaked into the host.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oci_bundle.hpp"
#include "plan_probe.hpp"
#include "runtime.hpp"
#include "skip.hpp"

namespace graft::e2e {

struct ProbedContainer {
  Runtime runtime = Runtime::runc;
  CgroupMode mode = CgroupMode::v1;
  std::string id;
  nlohmann::json plan;
  CommandResult run;  // the runtime's exit code and output (the script's lines)
  ProbeReport report;
  std::vector<std::string> leaked_mounts;  // host mountinfo lines added by the run
  long mount_count_change = 0;
};

// Plans `bundle` as the hook will (`graft --policy POLICY plan --bundle B
// --id ID`, with the graft at `graft`) and writes the check script generated
// from that plan (with the fixed probes `devices`) into its root.
nlohmann::json plan_with_probe(const OciBundle& bundle, const std::string& policy, const std::string& id,
                               const std::string& graft = GRAFT_BINARY,
                               const DeviceProbes& devices = nvidia_device_probes());

// What the check script printed: parsed into `container.report`, and shown
// with GRAFT_E2E_SHOW=1 whether the case passes or not.
void read_probe_output(ProbedContainer& container, std::string_view runner);

// The spec's env, layout and args are the test's; the hook (the standard
// test policy unless spec.hook_policy is set) and the cgroup path are filled
// in. `devices`: the vendor nodes the script probes besides the plan's.
ProbedContainer run_probed_container(Runtime runtime, CgroupMode mode, BundleSpec spec,
                                     const DeviceProbes& devices = nvidia_device_probes());

// The standard request: GPU 1, compute and utility.
BundleSpec gpu1_compute_utility();

// crun's error for a plain busybox container without a hook, "" when it
// runs: Debian 12's crun 1.8.1 refuses some hosts' cgroup layouts (this CI
// machine's v1 hybrid layout), and a case then skips with crun's own words.
std::string crun_refusal(CgroupMode mode = CgroupMode::v1);

}  // namespace graft::e2e

// Skips the test case (skip.hpp: ctest reports it as skipped) when
// containers cannot run here.
#define GRAFT_E2E_REQUIRE(runtime, mode) GRAFT_SKIP_IF(::graft::e2e::skip_reason(runtime, mode))

// Declares `mode`, this run's cgroup mode: the case runs once per mode
// (GENERATE, one ctest test for both), a failure names its mode, and a mode
// that cannot run here skips as GRAFT_E2E_REQUIRE does.
#define GRAFT_E2E_EACH_CGROUP_MODE(runtime, mode)                               \
  const ::graft::e2e::CgroupMode mode =                                          \
      GENERATE(::graft::e2e::CgroupMode::v1, ::graft::e2e::CgroupMode::v2);      \
  INFO(::graft::e2e::mode_name(mode));                                           \
  GRAFT_E2E_REQUIRE(runtime, mode)
