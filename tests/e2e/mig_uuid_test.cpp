// SPDX-License-Identifier: Apache-2.0
// MIG by UUID end to end: a fake 2-GPU MIG host (instances (1,0), (2,0),
// (2,1) on each) whose MIG manager wrote the MIG UUID file the policy names
// ([vendor.nvidia] partition_uuid_file). A runc container asking for
// NVIDIA_VISIBLE_DEVICES=MIG-<uuid> gets that partition's GPU node and its GI
// and CI capability nodes, which open as far as a device without a driver
// does (ENXIO), and no capability node of another partition.
#include <catch2/catch.hpp>

#include <sstream>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "site_policy.hpp"

using namespace graft::e2e;
namespace fixture = graft::fixture;

namespace {

constexpr const char* kUuid = "MIG-2b2b2b2b-1111-4222-8333-444455556666";

std::string cap_node(unsigned minor) { return "/dev/nvidia-caps/nvidia-cap" + std::to_string(minor); }

// "open|<path>|<message>" for each path, from inside the container.
std::string open_script(const std::vector<std::string>& paths) {
  std::string script;
  for (const auto& path : paths)
    script += "m=$(cat " + path + " 2>&1 >/dev/null </dev/null); echo \"open|" + path + "|${m##*: }\"; ";
  return script;
}

std::string opened(const std::string& out, const std::string& path) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("open|" + path + "|")) return line.substr(6 + path.size());
  return "(not probed)";
}

}  // namespace

TEST_CASE("NVIDIA_VISIBLE_DEVICES=MIG-<uuid> gives the container the partition the MIG UUID file names",
          "[e2e][runc][v1][mig-uuid]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  static const fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2, true));
  GRAFT_SKIP_IF(host.device_nodes_created() ? "" : "device nodes need root: " + host.device_nodes_problem());
  std::string map = host.path("/run/mig-uuids");
  fixture::write_file(map, std::string(kUuid) + " 1 2 1\n");
  std::string policy = fixture::write_site_policy(
      host, "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[vendor.nvidia]\npartition_uuid_file = \"" + map + "\"\n");
  const std::string granted_gi = cap_node(fixture::mig_gi_minor(1, 2));
  const std::string granted_ci = cap_node(fixture::mig_ci_minor(1, 2, 1));
  const std::string other_ci = cap_node(fixture::mig_ci_minor(1, 2, 0));
  BundleSpec spec;
  spec.env = {std::string("NVIDIA_VISIBLE_DEVICES=") + kUuid, "NVIDIA_DRIVER_CAPABILITIES=utility"};
  spec.hook_policy = policy;
  spec.args = {"/bin/sh", "-c", open_script({"/dev/nvidia1", "/dev/nvidia0", granted_gi, granted_ci, other_ci})};
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  INFO("runtime stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);
  REQUIRE(container.run.exit_code == 0);
  const auto& granted = container.plan.at("decisions").at("granted").at("devices");
  REQUIRE(granted.size() == 1);
  CHECK(granted[0].at("gpu") == 1);
  CHECK(opened(container.run.out, "/dev/nvidia1") == kENXIO);
  CHECK(opened(container.run.out, granted_gi) == kENXIO);
  CHECK(opened(container.run.out, granted_ci) == kENXIO);
  CHECK(opened(container.run.out, "/dev/nvidia0") == "No such file or directory");
  CHECK(opened(container.run.out, other_ci) == "No such file or directory");
}
