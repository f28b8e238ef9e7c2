// SPDX-License-Identifier: Apache-2.0
// The synthetic host `graft policy test` cases and `graft policy check`'s
// samples run on: built in memory from a HostShape and the policy, holding
// every node and file the policy names, so planning on it needs no disk.
#include <catch2/catch.hpp>

#include "inventory/synthetic_inventory.hpp"
#include "plan/planner.hpp"
#include "planning_inputs.hpp"
#include "policy_cases/case_file.hpp"
#include "policy_cases/run_case.hpp"
#include "rules_support.hpp"

using namespace graft;

TEST_CASE("a synthetic host has the GPUs of its shape, with UUIDs, minors and partition minors",
          "[policy-test]") {
  Policy policy = test::planning_policy();
  Inventory host = synthetic_inventory(uniform_host(3, {2}, 2), policy);
  REQUIRE(host.gpus.size() == 3);
  CHECK(host.gpus[1].minor == 1);
  CHECK(host.gpus[1].uuid == synthetic_uuid(1));
  CHECK(host.gpus[0].partitions.empty());
  REQUIRE(host.gpus[2].partitions.size() == 2);
  const Partition& second = host.gpus[2].partitions[1];
  CHECK(second.gi == 2);
  CHECK(host.partition_caps.find("gpu2/gi2/access") == second.gi_minor);
  CHECK(host.partition_caps.find("gpu2/gi2/ci0/access") == second.ci_minor);
  CHECK(host.partition_caps.contains("config"));
}

TEST_CASE("a synthetic host has every node and file the policy names, unless the shape lists it missing",
          "[policy-test]") {
  Policy policy = test::planning_policy();
  HostShape shape = uniform_host(2, {1}, 1);
  shape.missing = {"/dev/gpu-uvm", "libgpu-ml.so", "gpu-smi"};
  Inventory host = synthetic_inventory(shape, policy);
  CHECK(host.device_nodes.count("/dev/gpuctl") == 1);
  CHECK(host.device_nodes.count("/dev/gpu1") == 1);
  CHECK(host.device_nodes.count("/dev/gpu-uvm") == 0);
  CHECK(host.device_nodes.count("/dev/gpu-caps/cap" + std::to_string(*host.gpus[1].partitions[0].gi_minor)) ==
        1);
  CHECK(host.libraries.count("libgpu-compute.so") == 1);
  CHECK(host.libraries.count("libgpu-ml.so") == 0);
  CHECK(host.binaries.count("gpu-smi") == 0);
  CHECK(host.ipc.count("/run/gpu/socket") == 1);
  CHECK(host.config_files.count("/etc/gpu/icd.json") == 1);
  CHECK(host.firmware.at("gpu/*.bin").size() == 1);
}

TEST_CASE("a plan made on a synthetic host gives the granted GPUs their nodes and the sets their files",
          "[policy-test]") {
  Policy policy = test::planning_policy();
  Inventory host = synthetic_inventory(uniform_host(2, {}, 0), policy);
  auto plan = make_plan(test::audit_request(), host, policy, test::granting({1}, {"compute"}));
  REQUIRE(plan.ok());
  CHECK(test::has_target(*plan, ActionKind::device_node, "/dev/gpu1"));
  CHECK_FALSE(test::has_target(*plan, ActionKind::device_node, "/dev/gpu0"));
  CHECK(test::has_target(*plan, ActionKind::bind_mount, "/usr/bin/gpu-smi"));
}

TEST_CASE("a case runs through the policy's rules and the planner, recording each rule's activity",
          "[policy-test]") {
  rules_test::RuleDir dir;
  Policy policy = test::planning_policy();
  policy.default_capabilities = {SourcedString{"compute", {}}};
  policy.rules = {SourcedString{dir.write("vendor.lua", R"(
rule("vendor", "request", function(req, host, grant)
  if req.env.GPUS == nil then return end
  grant:inject("asked")
  grant:add_device(tonumber(req.env.GPUS), "asked")
end)
rule("idle", "restrict", function(req, host, grant) end)
)"),
                                {}}};
  auto policy_case =
      parse_case_toml("[request]\nenv = { GPUS = \"1\" }\n[expect]\ndevices = [1]\n", "/c/one.toml");
  REQUIRE(policy_case.ok());
  auto run = run_case(*policy_case, policy);
  INFO((run ? "" : run.error().message));
  REQUIRE(run.ok());
  REQUIRE(run->plan.devices.size() == 1);
  CHECK(run->plan.devices[0].index == 1);
  CHECK(test::has_target(run->plan, ActionKind::device_node, "/dev/gpu1"));
  REQUIRE(run->activity.size() == 2);
  CHECK(run->activity[0].changed);
  CHECK(run->activity[1].ran);
  CHECK_FALSE(run->activity[1].changed);
}
