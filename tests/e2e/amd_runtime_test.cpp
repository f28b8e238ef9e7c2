// SPDX-License-Identifier: Apache-2.0
// AMD GPUs through graft-runtime: graft-runtime as the OCI runtime in front
// of runc (`graft-runtime --graft-policy P --root R run --bundle B ID`, the
// calls Docker and containerd make, here made directly) under a site policy
// that includes the shipped amd policy, in [runtime] mode "hook" and
// "declarative", in cgroup v1 and v2 mode, on the fake AMD host (two GPUs).
// The bundle has no hook of its own: what the container gets is what
// graft-runtime wrote into its config.json, which each case reads back after
// the run. The container's script, generated from what `graft plan` printed
// for the same bundle and policy, reports what it sees from inside.
#include <catch2/catch.hpp>

#include <set>

#include "fixture_files.hpp"
#include "harness/amd_container_checks.hpp"
#include "harness/amd_host.hpp"
#include "harness/container_checks.hpp"
#include "harness/host_mounts.hpp"
#include "skip.hpp"

using namespace graft::e2e;

namespace {

using nlohmann::json;

// One container run through graft-runtime, and its bundle's config.json as
// the test wrote it and as the run left it.
struct AmdShimRun {
  std::string policy;
  ProbedContainer container;
  std::string config_before;
  std::string config_after;
  json edited() const { return json::parse(config_after); }
};

// Builds the bundle (env AMD_VISIBLE_DEVICES=`visible`, "" for none, no
// hook), plans it and writes the probe script from that plan, and runs it
// with graft-runtime in `shim_mode` becoming runc in cgroup mode `mode`.
AmdShimRun run_amd_shim_container(const std::string& shim_mode, CgroupMode mode, const std::string& visible) {
  AmdShimRun result;
  result.policy = amd_runtime_policy(shim_mode);
  ProbedContainer& probed = result.container;
  probed.mode = mode;
  probed.id = unique_container_id("amd-shim-" + shim_mode + (mode == CgroupMode::v1 ? "-v1" : "-v2"));
  BundleSpec spec = amd_bundle(visible);
  spec.hook_policy.clear();  // no prestart hook: graft-runtime adds what it adds
  spec.cgroups_path = "/" + probed.id;
  HostMounts mounts;
  {
    OciBundle bundle(spec);
    probed.plan = plan_with_probe(bundle, result.policy, probed.id, GRAFT_BINARY, amd_device_probes());
    const std::string config = bundle.path() + "/config.json";
    result.config_before = graft::fixture::read_file(config);
    Container container(Runtime::runc, mode, probed.id, {GRAFT_RUNTIME_BINARY, "--graft-policy", result.policy});
    probed.run = container.run(bundle.path());
    result.config_after = graft::fixture::read_file(config);
    read_probe_output(probed, "graft-runtime " + shim_mode + ", " + std::string(mode_name(mode)));
  }  // the container is deleted (through graft-runtime) and the bundle removed here
  probed.leaked_mounts = mounts.added();
  probed.mount_count_change = mounts.count_change();
  return result;
}

// The plan's actions of `kind` as config.json's entries: device nodes as
// linux.devices entries, cgroup rules as linux.resources.devices entries.
std::set<json> amd_shim_planned_entries(const json& plan, const std::string& kind) {
  std::set<json> entries;
  for (const auto& action : plan.at("actions")) {
    if (action.at("kind") != kind) continue;
    const auto& device = action.at("device");
    json entry = {{"type", device.at("type")}, {"major", device.at("major")}, {"minor", device.at("minor")}};
    if (kind == "device_node") entry["path"] = action.at("target");
    if (kind == "cgroup_allow") entry.update({{"allow", true}, {"access", action.at("access")}});
    entries.insert(entry);
  }
  return entries;
}

// How many planned actions config.json cannot carry, which declarative mode
// leaves to `graft cdi-hook` (core/src/container_edits/container_edits.hpp).
std::size_t amd_shim_residual_count(const json& plan) {
  std::size_t count = 0;
  for (const auto& action : plan.at("actions")) {
    std::string kind = action.at("kind"), target = action.at("target");
    bool native = kind == "device_node" || kind == "cgroup_allow" || kind == "env" ||
                  (kind == "bind_mount" && !target.starts_with("/proc/"));
    count += native ? 0 : 1;
  }
  return count;
}

// What every AMD_VISIBLE_DEVICES=1 container shows, whichever mode.
void check_amd_shim_gpu1(const AmdShimRun& run) {
  require_ran_cleanly(run.container);
  check_amd_gpu1_planned(run.container);
  check_amd_gpu1_devices(run.container);
  check_exactly_the_planned_amd_targets(run.container);
}

// Hook mode: config.json got graft's createRuntime hook under this policy,
// and no device of its own; the hook applied the whole plan.
void check_amd_shim_hooked(const AmdShimRun& run) {
  json config = run.edited(), before = json::parse(run.config_before);
  INFO("config.json after graft-runtime:\n" << run.config_after);
  REQUIRE(config.contains("hooks"));
  REQUIRE(config["hooks"].contains("createRuntime"));
  REQUIRE(config["hooks"]["createRuntime"].size() == 1);
  const auto& hook = config["hooks"]["createRuntime"][0];
  CHECK(hook.at("path") == GRAFT_BINARY);
  CHECK(hook.at("args") == json({"graft", "--policy", run.policy, "hook", "createRuntime"}));
  CHECK_FALSE(config["linux"].contains("devices"));
  CHECK(config["linux"]["resources"]["devices"] == before["linux"]["resources"]["devices"]);
  check_applied_the_plan(run.container, amd_audit_records(run.container.id, "applied"));
}

// Declarative mode: config.json names exactly the planned nodes and, after
// the bundle's own deny-all, their rules; what it cannot carry (nothing, on
// this plan) went to one cdi-hook, whose record counts only that; the
// shim's own `planned` record holds the whole plan.
void check_amd_shim_declared(const AmdShimRun& run) {
  json config = run.edited(), before = json::parse(run.config_before);
  const json& plan = run.container.plan;
  INFO("config.json after graft-runtime:\n" << run.config_after);
  REQUIRE(config["linux"].contains("devices"));
  const json& devices = config["linux"]["devices"];
  CHECK(std::set<json>(devices.begin(), devices.end()) == amd_shim_planned_entries(plan, "device_node"));
  const json& rules = config["linux"]["resources"]["devices"];
  const json& engine_rules = before["linux"]["resources"]["devices"];
  REQUIRE(rules.size() >= engine_rules.size());
  CHECK(json(rules.begin(), rules.begin() + engine_rules.size()) == engine_rules);
  CHECK(std::set<json>(rules.begin() + engine_rules.size(), rules.end()) ==
        amd_shim_planned_entries(plan, "cgroup_allow"));
  auto planned = amd_audit_records(run.container.id, "planned");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].at("actions") == plan.at("actions").size());
  auto applied = amd_audit_records(run.container.id, "applied");
  std::size_t residual = amd_shim_residual_count(plan);
  INFO("planned actions config.json cannot carry: " << residual);
  if (residual == 0) {
    CHECK_FALSE(config.contains("hooks"));
    CHECK(applied.empty());
    return;
  }
  REQUIRE(config["hooks"]["createRuntime"].size() == 1);
  CHECK(config["hooks"]["createRuntime"][0].at("args").dump().find("\"cdi-hook\"") != std::string::npos);
  REQUIRE(applied.size() == 1);
  CHECK(applied[0].at("applied") == residual);
}

}  // namespace

TEST_CASE("graft-runtime in hook mode in front of runc, in either cgroup mode: AMD_VISIBLE_DEVICES=1 opens "
          "/dev/kfd and renderD129, GPU 0's renderD128 stays denied, and graft's hook applied the whole plan",
          "[e2e][amd][shim][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  auto run = run_amd_shim_container("hook", mode, "1");
  check_amd_shim_gpu1(run);
  check_amd_shim_hooked(run);
}

TEST_CASE("graft-runtime in declarative mode in front of runc, in either cgroup mode: AMD_VISIBLE_DEVICES=1 "
          "opens /dev/kfd and renderD129 that config.json names, and GPU 0's renderD128 stays denied",
          "[e2e][amd][shim][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  auto run = run_amd_shim_container("declarative", mode, "1");
  check_amd_shim_gpu1(run);
  check_amd_shim_declared(run);
}

TEST_CASE("graft-runtime in hook or declarative mode in front of runc, in either cgroup mode, leaves a container "
          "without AMD_VISIBLE_DEVICES untouched: config.json byte for byte, no /dev/kfd, no render node",
          "[e2e][amd][shim][runc][v1][v2]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  GRAFT_SKIP_IF(amd_host_skip_reason());
  const std::string shim_mode = GENERATE(std::string("hook"), std::string("declarative"));
  INFO("graft-runtime mode " << shim_mode);
  auto run = run_amd_shim_container(shim_mode, mode, "");
  CHECK(run.config_after == run.config_before);
  check_given_no_amd_gpu(run.container);
}
