// SPDX-License-Identifier: Apache-2.0
#include "cdi/cdi_spec.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cdi_format/cdi_names.hpp"
#include "cdi/host_root.hpp"
#include "evaluation/container_plan.hpp"
#include "plan/planner.hpp"
#include "policy/vendors.hpp"

namespace graft::cdi {
namespace {

// A device's procfs bind, made by the spec-level hook when the container
// has the device's nodes (`graft cdi-hook --procfs-bind-if`): the binds lie
// on the procfs mask, which only one hook may lay and which is read-only
// once laid, so every bind must come from the hook that lays it.
struct ConditionalBind {
  std::set<std::string> devices;
  std::string bind;  // PATH::HOST
};

struct Planning {
  const Inventory& inventory;
  const Policy& policy;
  const SpecRequest& request;
  std::string vendor;  // whose GPUs the kind names ("": every GPU, by host index)
  std::vector<std::string> gpu_capabilities;  // the sets every GPU device carries
  std::vector<ConditionalBind> procfs_binds = {};
};

Intent intent_for(const Planning& planning, const std::string& what) {
  Intent intent;
  intent.inject = true;
  intent.inject_reason = {"CDI device " + what, {}};
  if (!planning.vendor.empty()) intent.vendors.insert(planning.vendor);
  return intent;
}

// A GPU device's Intent before its GPUs: the sets GPU devices carry.
Intent gpu_intent_for(const Planning& planning, const std::string& what) {
  Intent intent = intent_for(planning, what);
  for (const auto& set : planning.gpu_capabilities)
    intent.capabilities.push_back({set, {"CDI GPU device " + what + " carries it", {}}});
  return intent;
}

// The request's choice, else the policy's: the [defaults] sets or those
// named, less another vendor's (a site of two vendors has one [defaults]).
Result<std::vector<std::string>> gpu_capability_names(const Policy& policy, const SpecRequest& request,
                                                      const std::string& vendor) {
  const GpuCapabilities chosen = request.gpu_capabilities.value_or(policy.cdi.gpu_capabilities);
  std::vector<std::string> names;
  for (const auto& set : chosen.defaults ? policy.default_capabilities : chosen.sets) {
    auto found = policy.capabilities.find(set.value);
    if (found == policy.capabilities.end())
      return make_error("GPU devices carry capability set '{}', which the policy does not define", set.value);
    if (vendor.empty() || serves_vendor(found->second.vendor, vendor)) names.push_back(set.value);
  }
  return names;
}

// The vendor whose [vendor.NAME] cdi_kind is `kind`; the only vendor when
// none names a kind; "" (every GPU) on a policy without vendors.
Result<std::string> vendor_of_kind(const Policy& policy, const std::string& kind) {
  for (const auto& [name, vendor] : policy.vendors)
    if (vendor.cdi_kind == kind) return name;
  if (policy.vendors.size() <= 1) return policy.vendor_order.empty() ? std::string() : policy.vendor_order.front();
  std::vector<std::string> kinds;
  for (const auto& name : policy.vendor_order) kinds.push_back(policy.vendors.at(name).cdi_kind);
  return make_error("kind {} is no vendor's cdi_kind; this policy's vendors name {}", kind, fmt::join(kinds, ", "));
}

bool serves(const Planning& planning, const std::string& owner) {
  return planning.vendor.empty() || serves_vendor(owner, planning.vendor);
}

// What a GPU is called in the spec: its place among its vendor's GPUs, as
// that vendor's own tools count (the host index on a policy without vendors).
unsigned spec_index(const Planning& planning, const Gpu& gpu) {
  return planning.vendor.empty() ? gpu.index : gpu.vendor_index;
}

Result<ContainerEdits> edits_of(const Planning& planning, const Intent& intent) {
  Request request;
  request.container_id = "cdi";
  auto plan = make_plan(request, planning.inventory, planning.policy, intent);
  if (!plan) return plan.error();
  if (planning.request.check_boundary)
    if (auto status = check_boundary(*plan, planning.inventory, planning.policy); !status) return status.error();
  auto on_host = plan_on_host(std::move(*plan), planning.request.host_root);
  if (!on_host) return on_host.error();
  return split_plan(*on_host);
}

bool same_work(const Action& a, const Action& b) {
  return a.kind == b.kind && a.plugin == b.plugin && a.source == b.source && a.target == b.target &&
         a.options == b.options && a.content == b.content && a.paths == b.paths && a.rewrites == b.rewrites;
}

template <typename T, typename Same>
void remove_shared(std::vector<T>& from, const std::vector<T>& shared, Same same) {
  std::erase_if(from, [&](const T& item) {
    return std::any_of(shared.begin(), shared.end(), [&](const T& other) { return same(item, other); });
  });
}

// What `device` adds to what every device gets (`base`).
ContainerEdits minus(ContainerEdits device, const ContainerEdits& base) {
  auto equal = [](const auto& a, const auto& b) { return a == b; };
  remove_shared(device.device_nodes, base.device_nodes, equal);
  remove_shared(device.device_rules, base.device_rules, equal);
  remove_shared(device.mounts, base.mounts, equal);
  remove_shared(device.env, base.env, equal);
  remove_shared(device.residual, base.residual, same_work);
  return device;
}

// A CDI runtime allows each node it makes; a rule with no node is not expressible.
Status check_rules_have_nodes(const ContainerEdits& edits, const ContainerEdits& base) {
  for (const auto& rule : edits.device_rules) {
    auto is_its_node = [&](const DeviceNodeEdit& node) {
      return node.type == rule.type && node.major == rule.major && node.minor == rule.minor;
    };
    if (std::none_of(edits.device_nodes.begin(), edits.device_nodes.end(), is_its_node) &&
        std::none_of(base.device_nodes.begin(), base.device_nodes.end(), is_its_node))
      return make_error("device rule {} {}:{} has no device node, which CDI cannot express", rule.type,
                        rule.major, rule.minor);
  }
  return ok_status();
}

SpecHook make_hook(const Planning& planning, const CdiHookActions& actions) {
  return {"createRuntime",
          cdi_hook_command(planning.request.graft_binary, planning.request.policy_path, actions), actions};
}

Result<SpecEdits> spec_edits_of(const Planning& planning, const ContainerEdits& edits,
                                const ContainerEdits& base) {
  if (auto status = check_rules_have_nodes(edits, base); !status) return status.error();
  SpecEdits out{edits.env, edits.device_nodes, edits.mounts, {}};
  for (auto& node : out.device_nodes)
    if (node.host_path == node.path) node.host_path.clear();  // the default: keeps the version low
  if (edits.residual.empty()) return out;
  auto actions = cdi_hook_actions_of(edits.residual);
  if (!actions) return actions.error();
  out.hooks.push_back(make_hook(planning, *actions));
  return out;
}

// Moves the device's procfs binds to the spec-level hook, on the condition
// of the device's own nodes.
Status take_procfs_binds(Planning& planning, ContainerEdits& device) {
  std::vector<Action> binds;
  std::erase_if(device.residual, [&](const Action& action) {
    if (action.kind != ActionKind::bind_mount) return false;
    binds.push_back(action);
    return true;
  });
  if (binds.empty()) return ok_status();
  std::set<std::string> nodes;
  for (const auto& node : device.device_nodes) nodes.insert(node.path);
  if (nodes.empty()) return make_error("procfs binds without a device node to condition them on");
  auto encoded = cdi_hook_actions_of(binds);
  if (!encoded) return encoded.error();
  for (const auto& bind : encoded->procfs_binds) planning.procfs_binds.push_back({nodes, bind});
  return ok_status();
}

// "DEV,DEV::PATH::HOST" for each bind, leaving out those whose devices
// include all of another's for the same bind (it is made then anyway).
std::vector<std::string> conditional_binds(const std::vector<ConditionalBind>& binds) {
  std::vector<std::string> out;
  for (const auto& bind : binds) {
    bool implied = std::any_of(binds.begin(), binds.end(), [&](const ConditionalBind& other) {
      return other.bind == bind.bind && other.devices != bind.devices &&
             std::includes(bind.devices.begin(), bind.devices.end(), other.devices.begin(), other.devices.end());
    });
    std::string text = fmt::format("{}::{}", fmt::join(bind.devices, ","), bind.bind);
    if (!implied && std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
  }
  return out;
}

void add_conditional_binds(const Planning& planning, SpecEdits& spec_level) {
  if (planning.procfs_binds.empty()) return;
  if (spec_level.hooks.empty()) spec_level.hooks.push_back(make_hook(planning, {}));
  CdiHookActions actions = spec_level.hooks.front().actions;
  actions.procfs_binds_if = conditional_binds(planning.procfs_binds);
  spec_level.hooks.front() = make_hook(planning, actions);
}

Status add_device(Planning& planning, const ContainerEdits& base, const std::string& name,
                  const Intent& intent, Spec& spec) {
  auto edits = edits_of(planning, intent);
  if (!edits) return edits.error().context("CDI device " + name);
  ContainerEdits own = minus(std::move(*edits), base);
  if (auto status = take_procfs_binds(planning, own); !status) return status.error().context("CDI device " + name);
  auto device = spec_edits_of(planning, own, base);
  if (!device) return device.error().context("CDI device " + name);
  if (device->empty()) return ok_status();  // nothing beyond the spec-level edits: CDI refuses it
  spec.devices.push_back({name, std::move(*device)});
  return ok_status();
}

Status add_gpu_devices(Planning& planning, const ContainerEdits& base, Spec& spec) {
  for (const Gpu& gpu : planning.inventory.gpus) {
    if (!serves(planning, gpu.vendor)) continue;
    std::string number = std::to_string(spec_index(planning, gpu));
    Intent intent = gpu_intent_for(planning, number);
    intent.devices.push_back({gpu.index, std::nullopt, intent.inject_reason});
    if (auto status = add_device(planning, base, number, intent, spec); !status) return status;
    if (!gpu.uuid.empty())
      if (auto status = add_device(planning, base, gpu.uuid, intent, spec); !status) return status;
    for (const Partition& partition : gpu.partitions) {
      std::string name = fmt::format("{}:{}", number, partition.index);
      Intent part = gpu_intent_for(planning, name);
      part.devices.push_back({gpu.index, partition.index, part.inject_reason});
      if (auto status = add_device(planning, base, name, part, spec); !status) return status;
      // By UUID too when the host's partition UUID file names it, so a
      // request by partition UUID has a CDI counterpart.
      if (!partition.uuid.empty())
        if (auto status = add_device(planning, base, partition.uuid, part, spec); !status) return status;
    }
  }
  Intent all = gpu_intent_for(planning, "all");
  for (const Gpu& gpu : planning.inventory.gpus)
    if (serves(planning, gpu.vendor)) all.devices.push_back({gpu.index, std::nullopt, all.inject_reason});
  if (all.devices.empty()) return ok_status();
  return add_device(planning, base, "all", all, spec);
}

Status add_capability_devices(Planning& planning, const ContainerEdits& base, Spec& spec) {
  for (const auto& [name, set] : planning.policy.capabilities) {
    if (set.always || !serves(planning, set.vendor)) continue;  // always: in the spec-level edits already
    std::string device = kCapabilityPrefix + name;
    Intent intent = intent_for(planning, device);
    intent.capabilities.push_back({name, intent.inject_reason});
    if (auto status = add_device(planning, base, device, intent, spec); !status) return status;
  }
  return ok_status();
}

bool in_some_set(const Policy& policy, const std::string& device_class) {
  for (const auto& [_, set] : policy.capabilities)
    for (const auto& item : set.devices)
      if (item.value == device_class) return true;
  return false;
}

// The numbers of a class's CDI devices: none (one device, the class) for
// a fixed or glob class no capability set names (only rules grant it), the
// host's minors of a per-minor class, the GPUs with nodes of a per-GPU
// sysfs class (which capability sets name, but their devices have no GPU).
std::vector<std::optional<unsigned>> node_device_numbers(const Planning& planning, const DeviceClass& device_class) {
  std::vector<std::optional<unsigned>> numbers;
  const Inventory& inventory = planning.inventory;
  if (device_class.per == DeviceClass::Per::fixed && !in_some_set(planning.policy, device_class.name))
    numbers.push_back(std::nullopt);
  if (device_class.per == DeviceClass::Per::minor)
    if (auto found = inventory.class_minors.find(device_class.name); found != inventory.class_minors.end())
      numbers.assign(found->second.begin(), found->second.end());
  if (device_class.per == DeviceClass::Per::gpu_sysfs)
    if (auto found = inventory.gpu_class_nodes.find(device_class.name); found != inventory.gpu_class_nodes.end())
      for (const auto& [gpu, paths] : found->second)
        if (!paths.empty()) numbers.push_back(gpu);
  return numbers;
}

// Device classes granted by node (grant:add_node) become CDI devices of
// their own: "<class>", or "<class>-<number>" for a numbered class. A class
// with no node on the host makes no device.
Status add_node_devices(Planning& planning, const ContainerEdits& base, Spec& spec) {
  for (const auto& [name, device_class] : planning.policy.devices) {
    if (!serves(planning, device_class.vendor)) continue;
    for (const auto& number : node_device_numbers(planning, device_class)) {
      std::string device = number ? fmt::format("{}-{}", name, *number) : name;
      Intent intent = intent_for(planning, device);
      intent.nodes.push_back({name, number, intent.inject_reason});
      if (auto status = add_device(planning, base, device, intent, spec); !status) return status;
    }
  }
  return ok_status();
}

Status check_names(const Spec& spec) {
  if (auto kind = parse_kind(spec.kind); !kind) return kind.error();
  for (const auto& device : spec.devices)
    if (auto status = validate_device_name(device.name); !status) return status;
  return ok_status();
}

}  // namespace

std::vector<Feature> features_of(const Spec& spec) {
  std::vector<Feature> features;
  auto add = [&](Feature feature) {
    if (std::find(features.begin(), features.end(), feature) == features.end()) features.push_back(feature);
  };
  auto add_edits = [&](const SpecEdits& edits, bool device_level) {
    if (!edits.env.empty()) add(Feature::container_env);
    for (const auto& node : edits.device_nodes)
      if (!node.host_path.empty()) add(Feature::device_node_host_path);
    for (const auto& hook : edits.hooks) {
      if (device_level) add(Feature::device_hooks);
      if (!hook.command.env.empty()) add(Feature::hook_env);
    }
  };
  if (auto kind = parse_kind(spec.kind); kind)
    for (Feature feature : cdi::features_of(QualifiedName{kind->vendor, kind->klass, "x"})) add(feature);
  add_edits(spec.edits, false);
  for (const auto& device : spec.devices) {
    add_edits(device.edits, true);
    if (!device.name.empty() && device.name[0] >= '0' && device.name[0] <= '9')
      add(Feature::device_name_leading_digit);
  }
  return features;
}

Result<Spec> generate_spec(const Inventory& inventory, const Policy& policy, const SpecRequest& request) {
  auto vendor = vendor_of_kind(policy, request.kind);
  if (!vendor) return vendor.error();
  auto gpu_capabilities = gpu_capability_names(policy, request, *vendor);
  if (!gpu_capabilities) return gpu_capabilities.error();
  Planning planning{inventory, policy, request, *vendor, std::move(*gpu_capabilities)};
  Spec spec;
  spec.kind = request.kind;
  auto base = edits_of(planning, intent_for(planning, "(spec-level edits)"));
  if (!base) return base.error().context("CDI spec-level edits");
  auto spec_level = spec_edits_of(planning, *base, ContainerEdits{});
  if (!spec_level) return spec_level.error().context("CDI spec-level edits");
  spec.edits = std::move(*spec_level);
  if (auto status = add_gpu_devices(planning, *base, spec); !status) return status.error();
  if (auto status = add_capability_devices(planning, *base, spec); !status) return status.error();
  if (auto status = add_node_devices(planning, *base, spec); !status) return status.error();
  add_conditional_binds(planning, spec.edits);
  if (auto status = check_names(spec); !status) return status.error();
  std::vector<Feature> used = features_of(spec);
  spec.version = request.version.value_or(minimum_version(used));
  if (auto status = check_supports(spec.version, used); !status)
    return status.error();
  return spec;
}

}  // namespace graft::cdi
