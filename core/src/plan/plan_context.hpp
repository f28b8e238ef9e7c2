// SPDX-License-Identifier: Apache-2.0
// What each planning step reads (all const) and the Plan it appends to.
// Steps are split by kind of action; each file under plan/ owns one.
#pragma once

#include "graft/base/error.hpp"
#include "inventory/inventory.hpp"
#include "plan/capability_items.hpp"
#include "plan/plan.hpp"
#include "request/request.hpp"

namespace graft {

struct PlanContext {
  const Request& request;
  const Inventory& inventory;
  const Policy& policy;
  const Intent& intent;
  const CapabilityItems& items;
  Plan& plan;
};

// The policy's device class expanded per GPU or per partition of `vendor`'s
// GPUs, if any; for vendor "", the first of any vendor.
const DeviceClass* device_class_for(const Policy& policy, DeviceClass::Per per, const std::string& vendor = "");
// The device-cgroup rule that lets the container open a character device.
Action cgroup_allow_action(unsigned major, unsigned minor, const Provenance& provenance);

Status add_device_actions(PlanContext& context);   // device nodes + their cgroup rules
Status add_extra_actions(PlanContext& context);    // named extras (partition management)
Status add_library_actions(PlanContext& context);  // libraries, soname and policy symlinks, ld cache
void add_file_actions(PlanContext& context);       // binaries, firmware, IPC, config files
void add_procfs_actions(PlanContext& context);     // procfs mask and per-GPU directories
void add_config_file_actions(PlanContext& context);  // files rules asked to write
void add_env_actions(PlanContext& context);

// Sorts into apply order, merges identical actions, and fails when two
// actions disagree about one target, naming both origins.
Status order_and_merge(Plan& plan);

}  // namespace graft
