// SPDX-License-Identifier: Apache-2.0
// generate_spec: the CDI spec as data, from make_plan with Intents made
// directly (cdi/cdi_spec.hpp). Inventory and policy are built in code
// (planning_inputs.hpp); no fake host, no root.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cdi/cdi_render.hpp"
#include "cdi/cdi_spec.hpp"
#include "cdi/cdi_validate.hpp"
#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;
using graft::cdi::Spec;

namespace {

const cdi::SpecRequest kRequest{"example.com/gpu", std::nullopt, "/usr/bin/graft", "/etc/graft/graft.toml"};

// The planning host with GPU 1 split into two partitions.
Inventory mig_host() {
  auto host = planning_host();
  host.char_major("gpu-caps", 511)
      .partition(1, 1, 0, 11, 12)
      .partition(1, 2, 0, 21, 22)
      .node("/dev/gpu-caps/cap11", 511, 11)
      .node("/dev/gpu-caps/cap12", 511, 12)
      .node("/dev/gpu-caps/cap21", 511, 21)
      .node("/dev/gpu-caps/cap22", 511, 22);
  return host.build();
}

Spec generated(const Inventory& inventory, cdi::SpecRequest request = kRequest,
               const Policy& policy = planning_policy()) {
  auto spec = cdi::generate_spec(inventory, policy, request);
  if (!spec) FAIL("generate_spec: " << spec.error().message);
  return *spec;
}

// The planning policy with compute and utility as its [defaults]
// capabilities, as the shipped policy has them; GPU devices carry them.
Policy policy_with_defaults() {
  Policy policy = planning_policy();
  policy.default_capabilities = {{"compute", {}}, {"utility", {}}};
  return policy;
}

// The same with [cdi] gpu_capabilities = []: GPU devices carry the GPU alone.
Policy least_privilege_policy() {
  Policy policy = policy_with_defaults();
  policy.cdi.gpu_capabilities = {false, {}};
  return policy;
}

const cdi::SpecDevice& device(const Spec& spec, const std::string& name) {
  auto found = std::find_if(spec.devices.begin(), spec.devices.end(),
                            [&](const cdi::SpecDevice& device) { return device.name == name; });
  if (found == spec.devices.end()) FAIL("no CDI device " << name);
  return *found;
}

std::vector<std::string> names(const Spec& spec) {
  std::vector<std::string> out;
  for (const auto& device : spec.devices) out.push_back(device.name);
  return out;
}

// One line per effect on the container, whichever form carries it; a
// device node also stands for the cgroup rule a CDI runtime derives from it.
using Facts = std::set<std::string>;

void add_node(const DeviceNodeEdit& node, Facts& facts) {
  std::string host = node.host_path == node.path ? "" : node.host_path;
  facts.insert(fmt::format("node {} {} {} {}:{}", node.path, host, node.type, node.major, node.minor));
}

void add_residual(const Action& action, Facts& facts) {
  if (action.kind != ActionKind::ldcache_update) {
    facts.insert(fmt::format("{} {} {} {} {} {} {}", to_string(action.kind), action.target, action.source,
                             fmt::join(action.options, ","), action.content, fmt::join(action.paths, ","),
                             fmt::join(action.rewrites, ",")));
    return;
  }
  for (const auto& dir : action.paths) facts.insert("ldcache-dir " + dir);
  for (std::size_t start = 0, end; start < action.content.size(); start = end + 1) {
    end = action.content.find('\n', start);
    facts.insert("ldcache-entry " + action.content.substr(start, end - start));
  }
}

Facts facts_of_plan(const Plan& plan) {
  ContainerEdits edits = split_plan(plan);
  Facts facts;
  for (const auto& node : edits.device_nodes) add_node(node, facts);
  for (const auto& rule : edits.device_rules)
    facts.insert(fmt::format("rule {} {}:{} {}", rule.type, rule.major, rule.minor, rule.access));
  for (const auto& mount : edits.mounts)
    facts.insert(fmt::format("mount {} {} {}", mount.host_path, mount.container_path, fmt::join(mount.options, ",")));
  for (const auto& env : edits.env) facts.insert("env " + env.name + "=" + env.value);
  for (const auto& action : edits.residual) add_residual(action, facts);
  return facts;
}

// The hooks' actions in a container whose config.json has `devices`.
void add_edits(const cdi::SpecEdits& edits, const std::vector<std::string>& devices, Facts& facts) {
  for (const auto& node : edits.device_nodes) {
    add_node(node, facts);
    facts.insert(fmt::format("rule {} {}:{} rw", node.type, node.major, node.minor));
  }
  for (const auto& mount : edits.mounts)
    facts.insert(fmt::format("mount {} {} {}", mount.host_path, mount.container_path, fmt::join(mount.options, ",")));
  for (const auto& env : edits.env) facts.insert("env " + env.name + "=" + env.value);
  for (const auto& hook : edits.hooks) {
    auto actions = actions_from_cdi_hook(hook.actions, devices);
    REQUIRE(actions.ok());
    for (const auto& action : *actions) add_residual(action, facts);
  }
}

Facts facts_of_request(const Spec& spec, const std::vector<std::string>& devices) {
  std::vector<std::string> nodes;  // what the runtime writes into linux.devices
  for (const auto& node : spec.edits.device_nodes) nodes.push_back(node.path);
  for (const auto& name : devices)
    for (const auto& node : device(spec, name).edits.device_nodes) nodes.push_back(node.path);
  Facts facts;
  add_edits(spec.edits, nodes, facts);
  for (const auto& name : devices) add_edits(device(spec, name).edits, nodes, facts);
  return facts;
}

}  // namespace

TEST_CASE("a CDI spec names each GPU by index and UUID, each partition as gpu:partition, all, and each capability",
          "[cdi][spec]") {
  Spec spec = generated(mig_host());
  CHECK(names(spec) == std::vector<std::string>{"0", "GPU-0", "1", "GPU-1", "1:0", "1:1", "all",
                                                "capability-compute", "capability-config",
                                                "capability-firmware", "capability-ipc",
                                                "capability-utility", "capability-video"});
}

TEST_CASE("a partition whose UUID the host's partition UUID file names is also a CDI device by that UUID, with "
          "the same edits as gpu:partition", "[cdi][spec]") {
  Inventory host = mig_host();
  host.gpus[1].partitions[0].uuid = "MIG-11111111-2222-4333-8444-555555555555";
  Spec spec = generated(host);
  CHECK(names(spec) == std::vector<std::string>{"0", "GPU-0", "1", "GPU-1", "1:0",
                                                "MIG-11111111-2222-4333-8444-555555555555", "1:1", "all",
                                                "capability-compute", "capability-config",
                                                "capability-firmware", "capability-ipc",
                                                "capability-utility", "capability-video"});
  const auto& by_uuid = device(spec, "MIG-11111111-2222-4333-8444-555555555555").edits;
  const auto& by_index = device(spec, "1:0").edits;
  CHECK(by_uuid.device_nodes == by_index.device_nodes);
  CHECK(by_uuid.mounts == by_index.mounts);
  CHECK(by_uuid.hooks.size() == by_index.hooks.size());
}

TEST_CASE("the edits of GPU 1, compute and utility in CDI add up to the plan graft plan makes for GPU 1 with compute,utility",
          "[cdi][spec]") {
  Inventory inventory = planning_host().build();
  Spec spec = generated(inventory);
  Plan plan = planned(inventory, granting({1}, {"compute", "utility"}));
  Facts from_cdi = facts_of_request(spec, {"1", "capability-compute", "capability-utility"});
  Facts from_plan = facts_of_plan(plan);
  CHECK(from_cdi == from_plan);
  CHECK(from_plan.size() > 10);
}

TEST_CASE("a partition's CDI edits add up to the plan for that partition", "[cdi][spec]") {
  Inventory inventory = mig_host();
  Spec spec = generated(inventory);
  Intent intent = granting({}, {});
  intent.devices.push_back({1, 0, {"partition 1:0", {}}});
  CHECK(facts_of_request(spec, {"1:0"}) == facts_of_plan(planned(inventory, intent)));
}

TEST_CASE("what every device needs is spec-level: the always sets and the procfs mask, which alone makes the procfs binds",
          "[cdi][spec]") {
  Spec spec = generated(planning_host().build());
  REQUIRE(spec.edits.device_nodes.size() == 1);
  CHECK(spec.edits.device_nodes.front().path == "/dev/gpuctl");
  REQUIRE(spec.edits.hooks.size() == 1);
  CHECK(spec.edits.hooks.front().actions.procfs_mask == "/proc/driver/gpu::/proc/driver/gpu");
  for (const auto& device : spec.devices) {
    INFO(device.name);
    for (const auto& node : device.edits.device_nodes) CHECK(node.path != "/dev/gpuctl");
    for (const auto& hook : device.edits.hooks) {
      CHECK(hook.actions.procfs_mask.empty());
      CHECK(hook.actions.procfs_binds.empty());
      CHECK(hook.actions.procfs_binds_if.empty());
    }
  }
}

TEST_CASE("a capability device carries only its own set: utility has no compute library and no GPU node",
          "[cdi][spec]") {
  Spec spec = generated(planning_host().build());
  const auto& utility = device(spec, "capability-utility").edits;
  for (const auto& mount : utility.mounts) CHECK(mount.container_path.find("libgpu-compute") == std::string::npos);
  CHECK(std::any_of(utility.mounts.begin(), utility.mounts.end(), [](const MountEdit& mount) {
    return mount.container_path.ends_with("/libgpu-ml.so.1.0");
  }));
  CHECK(utility.device_nodes.empty());
}

TEST_CASE("every hook in a CDI spec runs graft cdi-hook at createRuntime with only PATH in its env",
          "[cdi][spec]") {
  Spec spec = generated(mig_host());
  std::vector<const cdi::SpecHook*> hooks;
  for (const auto& hook : spec.edits.hooks) hooks.push_back(&hook);
  for (const auto& device : spec.devices)
    for (const auto& hook : device.edits.hooks) hooks.push_back(&hook);
  REQUIRE(hooks.size() > 3);
  for (const auto* hook : hooks) {
    CHECK(hook->hook_name == "createRuntime");
    CHECK(hook->command.path == "/usr/bin/graft");
    CHECK(hook->command.env == std::vector<std::string>{kHookPath});
    CHECK(std::vector<std::string>(hook->command.args.begin(), hook->command.args.begin() + 5) ==
          std::vector<std::string>{"graft", "--policy", "/etc/graft/graft.toml", "cdi-hook", "createRuntime"});
  }
}

TEST_CASE("auto picks the lowest cdiVersion the spec's features need: 0.5.0 for device names like 0",
          "[cdi][spec][version]") {
  Spec spec = generated(planning_host().build());
  CHECK(cdi::to_string(spec.version) == "0.5.0");
  CHECK(cdi::minimum_version(cdi::features_of(spec)) == spec.version);
}

TEST_CASE("a requested cdiVersion below what a used feature needs is an error naming the feature",
          "[cdi][spec][version]") {
  cdi::SpecRequest request = kRequest;
  request.version = cdi::Version{0, 4, 0};
  auto spec = cdi::generate_spec(planning_host().build(), planning_policy(), request);
  REQUIRE_FALSE(spec.ok());
  CHECK_THAT(spec.error().message, Catch::Contains("0.4.0") && Catch::Contains("needs 0.5.0"));
}

TEST_CASE("a higher requested cdiVersion is declared, and the spec still writes no field newer than 0.5.0",
          "[cdi][spec][version]") {
  cdi::SpecRequest request = kRequest;
  request.version = cdi::Version{1, 1, 0};
  Spec spec = generated(planning_host().build(), request);
  auto document = cdi::spec_json(spec);
  CHECK(document["cdiVersion"] == "1.1.0");
  CHECK(cdi::render_json(spec).find("annotations") == std::string::npos);
  CHECK(cdi::minimum_version(cdi::features_of(spec)) <= cdi::Version{0, 5, 0});
}

TEST_CASE("a dotted class needs cdiVersion 0.6.0, so auto declares it", "[cdi][spec][version]") {
  cdi::SpecRequest request = kRequest;
  request.kind = "example.com/gpu.v2";
  CHECK(cdi::to_string(generated(planning_host().build(), request).version) == "0.6.0");
}

TEST_CASE("a bad kind is refused naming the rule", "[cdi][spec]") {
  cdi::SpecRequest request = kRequest;
  request.kind = "example.com";
  auto spec = cdi::generate_spec(planning_host().build(), planning_policy(), request);
  REQUIRE_FALSE(spec.ok());
}

TEST_CASE("a device node at its own host path is written without hostPath", "[cdi][spec]") {
  // planning_host's dev root is "/": host and container paths agree.
  Spec spec = generated(planning_host().build());
  for (const auto& node : device(spec, "0").edits.device_nodes) CHECK(node.host_path.empty());
}

TEST_CASE("each GPU's procfs directory is bound by the spec-level hook only when the container has that GPU's node",
          "[cdi][spec]") {
  Spec spec = generated(mig_host());
  REQUIRE(spec.edits.hooks.size() == 1);
  const auto& binds = spec.edits.hooks.front().actions.procfs_binds_if;
  CHECK(std::count(binds.begin(), binds.end(),
                   "/dev/gpu1::/proc/driver/gpu/gpus/0000:02:00.0::/proc/driver/gpu/gpus/0000:02:00.0") == 1);
  // A partition's access files need its cap nodes; its GPU's directory is
  // already bound on the GPU node alone, so no longer condition repeats it.
  CHECK(std::count_if(binds.begin(), binds.end(), [](const std::string& bind) {
          return bind.starts_with("/dev/gpu-caps/cap11,/dev/gpu-caps/cap12,/dev/gpu1::") &&
                 bind.find("gi1/access::") != std::string::npos;
        }) == 1);
  CHECK(std::count_if(binds.begin(), binds.end(), [](const std::string& bind) {
          return bind.find("::/proc/driver/gpu/gpus/0000:02:00.0::") != std::string::npos;
        }) == 1);
}

TEST_CASE("two GPUs asked as two CDI devices add up to the plan for both", "[cdi][spec]") {
  Inventory inventory = planning_host().build();
  Spec spec = generated(inventory);
  CHECK(facts_of_request(spec, {"0", "1"}) == facts_of_plan(planned(inventory, granting({0, 1}, {}))));
  CHECK(facts_of_request(spec, {"all"}) == facts_of_plan(planned(inventory, granting({0, 1}, {}))));
}

TEST_CASE("GPU 1 alone in CDI adds up to the plan graft plan makes for GPU 1 with the policy's default capabilities",
          "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = planning_host().build();
  Policy policy = policy_with_defaults();
  Spec spec = generated(inventory, kRequest, policy);
  Facts from_plan = facts_of_plan(planned(inventory, granting({1}, {"compute", "utility"}), policy));
  CHECK(facts_of_request(spec, {"1"}) == from_plan);
  CHECK(facts_of_request(spec, {"GPU-1"}) == from_plan);
  CHECK(from_plan.size() > 10);
}

TEST_CASE("all alone in CDI adds up to the plan for every GPU with the default capabilities, as do both GPUs named",
          "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = planning_host().build();
  Policy policy = policy_with_defaults();
  Spec spec = generated(inventory, kRequest, policy);
  Facts from_plan = facts_of_plan(planned(inventory, granting({0, 1}, {"compute", "utility"}), policy));
  CHECK(facts_of_request(spec, {"all"}) == from_plan);
  CHECK(facts_of_request(spec, {"0", "1"}) == from_plan);
}

TEST_CASE("a MIG partition alone in CDI adds up to the plan for that partition with the default capabilities",
          "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = mig_host();
  Policy policy = policy_with_defaults();
  Spec spec = generated(inventory, kRequest, policy);
  Intent intent = granting({}, {"compute", "utility"});
  intent.devices.push_back({1, 0, {"partition 1:0", {}}});
  CHECK(facts_of_request(spec, {"1:0"}) == facts_of_plan(planned(inventory, intent, policy)));
}

TEST_CASE("a GPU with capability devices adds up to the plan for the default capabilities and those sets",
          "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = planning_host().build();
  Policy policy = policy_with_defaults();
  Spec spec = generated(inventory, kRequest, policy);
  // A default set named again as a capability device changes nothing.
  CHECK(facts_of_request(spec, {"1", "capability-compute", "capability-utility"}) ==
        facts_of_plan(planned(inventory, granting({1}, {"compute", "utility"}), policy)));
  CHECK(facts_of_request(spec, {"1", "capability-video"}) ==
        facts_of_plan(planned(inventory, granting({1}, {"compute", "utility", "video"}), policy)));
}

TEST_CASE("with [cdi] gpu_capabilities = [] a GPU device carries no library, and capability devices add the sets",
          "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = planning_host().build();
  Policy policy = least_privilege_policy();
  Spec spec = generated(inventory, kRequest, policy);
  for (const char* name : {"0", "1", "GPU-1", "all"}) {
    INFO(name);
    CHECK(device(spec, name).edits.mounts.empty());
    CHECK(device(spec, name).edits.hooks.empty());
  }
  CHECK(facts_of_request(spec, {"1"}) == facts_of_plan(planned(inventory, granting({1}, {}), policy)));
  CHECK(facts_of_request(spec, {"1", "capability-compute", "capability-utility"}) ==
        facts_of_plan(planned(inventory, granting({1}, {"compute", "utility"}), policy)));
}

TEST_CASE("a request's GPU capabilities override the policy's, both ways", "[cdi][spec][gpu-capabilities]") {
  Inventory inventory = planning_host().build();
  cdi::SpecRequest least = kRequest;
  least.gpu_capabilities = GpuCapabilities{false, {}};
  CHECK(device(generated(inventory, least, policy_with_defaults()), "1").edits.mounts.empty());
  cdi::SpecRequest defaults = kRequest;
  defaults.gpu_capabilities = GpuCapabilities{};
  CHECK_FALSE(device(generated(inventory, defaults, least_privilege_policy()), "1").edits.mounts.empty());
  cdi::SpecRequest named = kRequest;
  named.gpu_capabilities = GpuCapabilities{false, {{"video", {}}}};
  Policy policy = policy_with_defaults();
  CHECK(facts_of_request(generated(inventory, named, policy), {"1"}) ==
        facts_of_plan(planned(inventory, granting({1}, {"video"}), policy)));
}

TEST_CASE("a GPU device capability set the policy does not define is an error naming it",
          "[cdi][spec][gpu-capabilities]") {
  cdi::SpecRequest request = kRequest;
  request.gpu_capabilities = GpuCapabilities{false, {{"compute", {}}, {"no-such-set", {}}}};
  auto spec = cdi::generate_spec(planning_host().build(), planning_policy(), request);
  REQUIRE_FALSE(spec.ok());
  CHECK_THAT(spec.error().message, Catch::Contains("'no-such-set'"));
}

TEST_CASE("a generated spec carries no field its declared cdiVersion does not allow, additionalGids included, "
          "at auto and at every version it can declare",
          "[cdi][spec][version]") {
  Inventory inventory = mig_host();
  Spec automatic = generated(inventory, kRequest, policy_with_defaults());
  // The released versions from 0.5.0, the least a device named "0" needs.
  for (const char* text : {"0.5.0", "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0"}) {
    cdi::Version version = *cdi::parse_version(text);
    if (version < automatic.version) continue;
    INFO(cdi::to_string(version));
    cdi::SpecRequest request = kRequest;
    request.version = version;
    std::string rendered = cdi::render_json(generated(inventory, request, policy_with_defaults()));
    CHECK(cdi::validate_spec(nlohmann::json::parse(rendered)).empty());
    CHECK(rendered.find("additionalGids") == std::string::npos);
  }
  CHECK(cdi::validate_spec(nlohmann::json::parse(cdi::render_json(automatic))).empty());
}
