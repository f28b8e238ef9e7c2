// SPDX-License-Identifier: Apache-2.0
// Device nodes a container gets: fixed nodes from its capability sets, one
// node per granted GPU, partition capability nodes, and the nodes rules
// grant by device class (grant:add_node). Extras add theirs in
// extra_actions.cpp. Every node also gets the cgroup rule that lets the
// container open it.
#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>

#include "paths/paths.hpp"
#include "inventory/driver_procfs.hpp"
#include "plan/plan_context.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

void add_node(const DeviceNode& node, const Provenance& provenance, Plan& plan) {
  Action device;
  device.kind = ActionKind::device_node;
  device.plugin = "devices";
  device.source = node.host_path;
  device.target = node.path;
  device.device_type = node.type;
  device.major = node.major;
  device.minor = node.minor;
  device.options = {node.exists ? "bind" : "mknod"};
  device.provenance = provenance;
  plan.actions.push_back(device);
  plan.actions.push_back(cgroup_allow_action(node.major, node.minor, provenance));
}

Status add_named_node(const std::string& path, const Provenance& provenance, bool required,
                      PlanContext& context) {
  auto node = context.inventory.device_nodes.find(path);
  if (node != context.inventory.device_nodes.end()) {
    add_node(node->second, provenance, context.plan);
    return ok_status();
  }
  if (required) return make_error("required device node {} not found on the host", path);
  context.plan.warnings.push_back("device node " + path + " not found; skipped");
  return ok_status();
}

// Every host node a glob class matches; none matching is an error when the
// class is required, else a warning.
Status add_glob_class_nodes(const DeviceClass& device_class, const Provenance& provenance, PlanContext& context) {
  bool any = false;
  for (const auto& [path, node] : context.inventory.device_nodes)
    if (::fnmatch(device_class.path.c_str(), path.c_str(), FNM_PATHNAME) == 0) {
      add_node(node, provenance, context.plan);
      any = true;
    }
  if (any) return ok_status();
  if (device_class.required) return make_error("no device node matching {} found on the host", device_class.path);
  context.plan.warnings.push_back("no device node matching " + device_class.path + " found; skipped");
  return ok_status();
}

Status add_fixed_class_nodes(const DeviceClass& device_class, const Provenance& provenance, PlanContext& context) {
  if (device_class.is_glob()) return add_glob_class_nodes(device_class, provenance, context);
  return add_named_node(device_class.path, provenance, device_class.required, context);
}

// GPU `gpu`'s nodes of a per-GPU sysfs class; a GPU without any (its
// display driver not loaded) is a warning.
void add_gpu_sysfs_class_nodes(const DeviceClass& device_class, unsigned gpu, const Provenance& provenance,
                               PlanContext& context) {
  const auto& inventory = context.inventory;
  const std::vector<std::string>* paths = nullptr;
  if (auto by_gpu = inventory.gpu_class_nodes.find(device_class.name); by_gpu != inventory.gpu_class_nodes.end())
    if (auto found = by_gpu->second.find(gpu); found != by_gpu->second.end()) paths = &found->second;
  if (!paths || paths->empty()) {
    context.plan.warnings.push_back(
        fmt::format("GPU {} has no {} node (nothing matches {}); skipped", gpu, device_class.name, device_class.sys_path));
    return;
  }
  for (const auto& path : *paths) add_node(inventory.device_nodes.at(path), provenance, context.plan);
}

// A capability set's per-GPU sysfs class reaches every granted GPU (and
// the parent of every granted partition), each once.
void add_granted_gpus_class_nodes(const DeviceClass& device_class, const Provenance& provenance,
                                  PlanContext& context) {
  std::vector<unsigned> done;
  for (const auto& grant : context.intent.devices) {
    if (std::find(done.begin(), done.end(), grant.gpu) != done.end()) continue;
    done.push_back(grant.gpu);
    if (!serves_vendor(device_class.vendor, context.inventory.gpus.at(grant.gpu).vendor)) continue;
    Provenance per_gpu = provenance;
    per_gpu.reason = fmt::format("{} on GPU {}", provenance.reason, grant.gpu);
    add_gpu_sysfs_class_nodes(device_class, grant.gpu, per_gpu, context);
  }
}

Status add_capability_nodes(PlanContext& context) {
  for (const auto& item : context.items.devices) {
    auto device_class = context.policy.devices.find(item.value);
    if (device_class == context.policy.devices.end()) continue;
    if (device_class->second.per == DeviceClass::Per::gpu_sysfs) {
      add_granted_gpus_class_nodes(device_class->second, provenance_of(item), context);
      continue;
    }
    if (auto status = add_fixed_class_nodes(device_class->second, provenance_of(item), context); !status)
      return status;
  }
  return ok_status();
}

// Node `minor` of a per-minor class: the host's node, or, when the host has
// none yet, one made from the class's /proc/devices major. A granted node
// the host cannot serve is an error: the rule asked for that very node.
Status add_minor_class_node(const DeviceClass& device_class, unsigned minor, const Provenance& provenance,
                            PlanContext& context) {
  std::string path = expand_template(device_class.path, {{"minor", std::to_string(minor)}});
  auto found = context.inventory.device_nodes.find(path);
  if (found != context.inventory.device_nodes.end()) {
    add_node(found->second, provenance, context.plan);
    return ok_status();
  }
  auto major = context.inventory.char_majors.find(device_class.major_name);
  if (device_class.major_name.empty() || major == context.inventory.char_majors.end())
    return make_error("device node {} not found on the host{}", path,
                      device_class.major_name.empty()
                          ? std::string()
                          : fmt::format(" and /proc/devices has no '{}'", device_class.major_name));
  DeviceNode made{path, join_root(context.policy.host.dev_root, path), 'c', major->second, minor, false};
  add_node(made, provenance, context.plan);
  return ok_status();
}

Status add_granted_nodes(PlanContext& context) {
  for (const auto& grant : context.intent.nodes) {
    auto device_class = context.policy.devices.find(grant.device_class);
    if (device_class == context.policy.devices.end())
      return make_error("granted device class '{}' is not defined by the policy", grant.device_class);
    Provenance provenance{grant.name(), grant.reason.text, grant.reason.origin};
    Status status = ok_status();
    if (device_class->second.per == DeviceClass::Per::gpu_sysfs && grant.number)
      add_gpu_sysfs_class_nodes(device_class->second, *grant.number, provenance, context);
    else if (grant.number)
      status = add_minor_class_node(device_class->second, *grant.number, provenance, context);
    else
      status = add_fixed_class_nodes(device_class->second, provenance, context);
    if (!status) return status.error().context(fmt::format("node {}", grant.name()));
  }
  return ok_status();
}

void bind_proc_file(const std::string& host_path, const std::string& root,
                    const Provenance& provenance, Plan& plan) {
  std::string inside = host_path.substr(root == "/" ? 0 : root.size());
  plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                .plugin = "procfs",
                                .source = host_path,
                                .target = normalize_path(inside),
                                .options = {"ro", "nosuid", "nodev", "noexec"},
                                .provenance = provenance});
}

// A partition is usable only through its capability nodes; without the
// minors file (or its line for this partition) the container would start
// with a partition it cannot open, so that is an error naming what is missing.
Status missing_partition_minor(const Gpu& gpu, const Partition& partition, const std::string& key_template,
                               const GpuDiscovery& discovery) {
  std::string key = expand_template(key_template, {{"minor", std::to_string(gpu.minor)},
                                                   {"gi", std::to_string(partition.gi)},
                                                   {"ci", std::to_string(partition.ci)}});
  return make_error("GPU {} partition {} (gi {} ci {}): no capability minor for '{}' in {} (file or line missing)",
                    gpu.index, partition.index, partition.gi, partition.ci, key,
                    discovery.partition_minors);
}

Status add_partition_nodes(const Gpu& gpu, const Partition& partition, const Provenance& provenance,
                           PlanContext& context) {
  const DeviceClass* caps = device_class_for(context.policy, DeviceClass::Per::partition, gpu.vendor);
  const GpuDiscovery& discovery = gpu_discovery_of(context.policy, gpu.vendor);
  const std::string& proc_root = context.policy.host.proc_root;
  bind_proc_file(partition.gi_access, proc_root, provenance, context.plan);
  bind_proc_file(partition.ci_access, proc_root, provenance, context.plan);
  if (!caps) return ok_status();
  const std::pair<std::optional<unsigned>, const std::string*> minors[] = {
      {partition.gi_minor, &discovery.partition_gi_key}, {partition.ci_minor, &discovery.partition_ci_key}};
  for (const auto& [minor, key] : minors) {
    if (!minor) return missing_partition_minor(gpu, partition, *key, discovery);
    std::string path = expand_template(caps->path, {{"minor", std::to_string(*minor)}});
    if (auto status = add_named_node(path, provenance, true, context); !status)
      return status.error().context(fmt::format("GPU {} partition {}", gpu.index, partition.index));
  }
  return ok_status();
}

Status add_gpu_nodes(PlanContext& context) {
  for (const auto& grant : context.intent.devices) {
    if (grant.gpu >= context.inventory.gpus.size())
      return make_error("granted GPU {} does not exist", grant.gpu);
    const Gpu& gpu = context.inventory.gpus[grant.gpu];
    const DeviceClass* gpu_class = device_class_for(context.policy, DeviceClass::Per::gpu, gpu.vendor);
    Provenance provenance{fmt::format("GPU {}", gpu.index), grant.reason.text, grant.reason.origin};
    if (gpu_class) {
      std::string path = expand_template(gpu_class->path, {{"minor", std::to_string(gpu.minor)}});
      if (auto status = add_named_node(path, provenance, true, context); !status) return status;
    }
    if (!grant.partition) continue;
    if (*grant.partition >= gpu.partitions.size())
      return make_error("granted partition {} of GPU {} does not exist", *grant.partition, gpu.index);
    if (auto status = add_partition_nodes(gpu, gpu.partitions[*grant.partition], provenance, context);
        !status)
      return status;
  }
  return ok_status();
}

}  // namespace

const DeviceClass* device_class_for(const Policy& policy, DeviceClass::Per per, const std::string& vendor) {
  for (const auto& [_, device_class] : policy.devices)
    if (device_class.per == per && (vendor.empty() || serves_vendor(device_class.vendor, vendor))) return &device_class;
  return nullptr;
}

Action cgroup_allow_action(unsigned major, unsigned minor, const Provenance& provenance) {
  return Action{.kind = ActionKind::cgroup_allow,
                .plugin = "cgroup",
                .target = fmt::format("c {}:{}", major, minor),
                .device_type = 'c',
                .major = major,
                .minor = minor,
                .access = "rw",
                .provenance = provenance};
}

Status add_device_actions(PlanContext& context) {
  if (auto status = add_capability_nodes(context); !status) return status;
  if (auto status = add_granted_nodes(context); !status) return status;
  return add_gpu_nodes(context);
}

}  // namespace graft
