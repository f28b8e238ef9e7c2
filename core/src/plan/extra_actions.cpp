// SPDX-License-Identifier: Apache-2.0
// Actions for named extras (e.g. partition management): capability nodes by
// name, cgroup rules for every partition capability of the visible GPUs, and
// read-only views of whole proc or dev directories.
#include <fmt/format.h>

#include <set>

#include "paths/paths.hpp"
#include "inventory/driver_procfs.hpp"
#include "plan/plan_context.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

Status add_named_caps(const Extra& extra, const Provenance& provenance, PlanContext& context) {
  const DeviceClass* caps = device_class_for(context.policy, DeviceClass::Per::partition);
  for (const auto& name : extra.caps) {
    auto minor = context.inventory.partition_caps.find(name);
    if (!caps || !minor)
      return make_error("extra '{}': capability '{}' not found on the host", extra.name, name);
    std::string path = expand_template(caps->path, {{"minor", std::to_string(*minor)}});
    auto node = context.inventory.device_nodes.find(path);
    if (node == context.inventory.device_nodes.end())
      return make_error("extra '{}': device node {} not found", extra.name, path);
    const DeviceNode& found = node->second;
    context.plan.actions.push_back(cgroup_allow_action(found.major, found.minor, provenance));
  }
  return ok_status();
}

// Every partition capability of each visible GPU, so the container can
// create and destroy partitions, not only use existing ones.
void add_all_partition_caps(const Provenance& provenance, PlanContext& context) {
  const DeviceClass* caps = device_class_for(context.policy, DeviceClass::Per::partition);
  if (!caps) return;
  auto major = context.inventory.char_majors.find(caps->major_name);
  if (major == context.inventory.char_majors.end()) return;
  std::set<unsigned> gpus;
  for (const auto& grant : context.intent.devices) gpus.insert(grant.gpu);
  for (unsigned index : gpus) {
    const Gpu& gpu = context.inventory.gpus.at(index);
    const std::string& key = gpu_discovery_of(context.policy, gpu.vendor).partition_gi_key;
    std::string prefix = expand_template(key.substr(0, key.find("{gi}")),
                                         {{"minor", std::to_string(gpu.minor)}});
    for (const auto& [name, minor] : context.inventory.partition_caps)
      if (!prefix.empty() && name.starts_with(prefix))
        context.plan.actions.push_back(cgroup_allow_action(major->second, minor, provenance));
  }
}

void add_directory_binds(const Extra& extra, const Provenance& provenance, PlanContext& context) {
  const HostRoots& roots = context.policy.host;
  for (const auto& path : extra.bind_proc)
    context.plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                          .plugin = "procfs",
                                          .source = join_root(roots.proc_root, path),
                                          .target = path,
                                          .options = {"ro", "nosuid", "nodev", "noexec"},
                                          .provenance = provenance});
  // Device directories keep nodev off: the nodes inside are the point.
  for (const auto& path : extra.bind_dev)
    context.plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                          .plugin = "devices",
                                          .source = join_root(roots.dev_root, path),
                                          .target = path,
                                          .options = {"ro", "nosuid", "noexec"},
                                          .provenance = provenance});
}

}  // namespace

Status add_extra_actions(PlanContext& context) {
  for (const auto& grant : context.intent.extras) {
    auto extra = context.policy.extras.find(grant.name);
    if (extra == context.policy.extras.end())
      return make_error("extra '{}' is not defined by the policy", grant.name);
    Provenance provenance{grant.name, grant.reason.text, grant.reason.origin};
    if (auto status = add_named_caps(extra->second, provenance, context); !status) return status;
    if (extra->second.all_partition_caps) add_all_partition_caps(provenance, context);
    add_directory_binds(extra->second, provenance, context);
  }
  return ok_status();
}

}  // namespace graft
