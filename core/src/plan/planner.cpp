// SPDX-License-Identifier: Apache-2.0
// make_plan: runs the planning steps in a fixed order, then orders and merges.
// A container that is not a GPU container gets an empty plan.
#include "plan/planner.hpp"

#include "plan/plan_context.hpp"
#include "policy/vendors.hpp"

namespace graft {

const char* to_string(ActionKind kind) {
  switch (kind) {
    case ActionKind::device_node: return "device_node";
    case ActionKind::cgroup_allow: return "cgroup_allow";
    case ActionKind::bind_mount: return "bind_mount";
    case ActionKind::symlink: return "symlink";
    case ActionKind::procfs_mask: return "procfs_mask";
    case ActionKind::config_file: return "config_file";
    case ActionKind::env: return "env";
    case ActionKind::ldcache_update: return "ldcache_update";
  }
  return "unknown";
}

namespace {

// The identity an auditor recognises for each granted GPU. A refused plan
// keeps them too (the record "keeps what was granted so far"), skipping a
// GPU the inventory lacks, since the refusal, not that, is its outcome.
Status add_granted_devices(const Intent& intent, const Inventory& inventory, Plan& plan) {
  for (const auto& grant : intent.devices) {
    if (grant.gpu >= inventory.gpus.size()) {
      if (intent.refusal) continue;
      return make_error("granted GPU {} does not exist", grant.gpu);
    }
    const Gpu& gpu = inventory.gpus[grant.gpu];
    plan.devices.push_back({gpu.index, grant.partition, gpu.minor, gpu.uuid, gpu.bus_id, grant.reason});
  }
  return ok_status();
}

// A vendor whose driver must show a version and shows none has no driver
// loaded; one whose version is optional (a driver built into the kernel
// may print none) is served without.
Status check_drivers_loaded(const Intent& intent, const Inventory& inventory, const Policy& policy) {
  for (const auto& source : gpu_sources(policy)) {
    if (!intent.for_vendor(source.vendor) || !source.discovery->version_required) continue;
    if (driver_version_of(inventory, source.vendor).empty())
      return make_error("GPUs requested but no {}driver is loaded on this host",
                        source.vendor.empty() ? "" : source.vendor + " ");
  }
  return ok_status();
}

// The version a plan names: its one vendor's driver's; for a container of
// several vendors (or of every one), the first source's.
const std::string& plan_driver_version(const Intent& intent, const Inventory& inventory) {
  if (intent.vendors.size() == 1) return driver_version_of(inventory, *intent.vendors.begin());
  return inventory.driver_version;
}

}  // namespace

Result<Plan> make_plan(const Request& request, const Inventory& inventory, const Policy& policy,
                       const Intent& intent) {
  Plan plan;
  plan.container_id = request.container_id;
  plan.bundle = request.bundle;
  plan.driver_version = plan_driver_version(intent, inventory);
  plan.intent = intent;
  plan.inject = intent.inject && !intent.refusal;
  if (intent.refusal) {
    (void)add_granted_devices(intent, inventory, plan);  // cannot fail for a refused plan
    return plan;
  }
  if (!plan.inject) return plan;
  if (auto status = check_drivers_loaded(intent, inventory, policy); !status) return status.error();
  if (auto status = add_granted_devices(intent, inventory, plan); !status) return status.error();
  CapabilityItems items = expand_capabilities(intent, policy);
  PlanContext context{request, inventory, policy, intent, items, plan};
  add_procfs_actions(context);
  if (auto status = add_device_actions(context); !status) return status.error();
  if (auto status = add_extra_actions(context); !status) return status.error();
  if (auto status = add_library_actions(context); !status) return status.error();
  add_file_actions(context);
  add_config_file_actions(context);
  add_env_actions(context);
  if (auto status = order_and_merge(plan); !status) return status.error();
  return plan;
}

}  // namespace graft
