// SPDX-License-Identifier: Apache-2.0
#include "probed_container.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>

#include "gpu_host.hpp"
#include "host_mounts.hpp"

namespace graft::e2e {

BundleSpec gpu1_compute_utility() {
  BundleSpec spec;
  spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"};
  return spec;
}

nlohmann::json plan_with_probe(const OciBundle& bundle, const std::string& policy, const std::string& id,
                               const std::string& graft, const DeviceProbes& devices) {
  auto planned = testing::run_command(
      {graft, "--policy", policy, "plan", "--bundle", bundle.path(), "--id", id, "--format", "json"});
  INFO("graft plan: " << planned.err);
  REQUIRE(planned.exit_code == 0);
  auto plan = nlohmann::json::parse(planned.out);
  bundle.write_in_rootfs(kProbeScript, probe_script(plan, devices), 0755);
  return plan;
}

void read_probe_output(ProbedContainer& container, std::string_view runner) {
  container.report = ProbeReport::parse(container.run.out);
  if (const char* show = std::getenv("GRAFT_E2E_SHOW"); show != nullptr && *show == '1')
    std::cout << "--- " << container.id << " (" << runner << ") exit " << container.run.exit_code << "\n"
              << container.run.out << container.run.err;
}

ProbedContainer run_probed_container(Runtime runtime, CgroupMode mode, BundleSpec spec,
                                     const DeviceProbes& devices) {
  auto& host = gpu_host();
  ProbedContainer result;
  HostMounts mounts;
  result.runtime = runtime;
  result.mode = mode;
  result.id = unique_container_id(std::string(runtime_name(runtime)) +
                                  (mode == CgroupMode::v1 ? "-v1" : "-v2"));
  if (spec.hook_policy.empty()) spec.hook_policy = host.policy;
  spec.cgroups_path = "/" + result.id;
  {
    OciBundle bundle(spec);
    result.plan = plan_with_probe(bundle, spec.hook_policy, result.id, spec.hook_binary, devices);
    Container container(runtime, mode, result.id);
    result.run = container.run(bundle.path());
    read_probe_output(result, std::string(runtime_name(runtime)) + ", " + std::string(mode_name(mode)));
  }  // the container is deleted and the bundle removed here
  result.leaked_mounts = mounts.added();
  result.mount_count_change = mounts.count_change();
  return result;
}

std::string crun_refusal(CgroupMode mode) {
  BundleSpec spec;
  spec.args = {"/bin/true"};
  std::string id = unique_container_id("crun-probe");
  spec.cgroups_path = "/" + id;
  OciBundle bundle(spec);
  Container container(Runtime::crun, mode, id);
  auto result = container.run(bundle.path());
  if (result.exit_code == 0) return "";
  std::string why = result.err.empty() ? result.out : result.err;
  while (!why.empty() && why.back() == '\n') why.pop_back();
  return "crun cannot run a plain container on this host in " + std::string(mode_name(mode)) + " mode (exit " +
         std::to_string(result.exit_code) + "): " + why;
}

}  // namespace graft::e2e
