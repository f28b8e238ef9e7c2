// SPDX-License-Identifier: Apache-2.0
// A CDI spec as data, built from the same planner `graft plan` uses: each
// CDI device is the plan of an Intent made directly (one GPU, one
// partition, all GPUs, each with the capability sets GPU devices carry
// (by default the policy's default capabilities, so a consumer naming only
// the GPU gets its driver); or one capability set alone), split into native
// edits and a `graft cdi-hook` for the rest (container_edits/container_edits.hpp).
// What every plan shares (the `always` sets, the procfs mask) is the
// spec-level edits; each device keeps only what it adds. So the edits a
// request names in CDI add up to the plan `graft plan` makes for the same
// request (CDI engines merge duplicate mounts and nodes; a set named twice
// runs its hook twice, and the hook's work is idempotent). Pure: the
// inventory and policy come in as values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cdi_format/cdi_version.hpp"
#include "container_edits/container_edits.hpp"
#include "container_edits/hook_arguments.hpp"
#include "graft/base/error.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"

namespace graft::cdi {

struct SpecHook {
  std::string hook_name;   // always "createRuntime" (docs/cdi.md)
  HookCommand command;     // what the spec says
  CdiHookActions actions;  // what command's options mean
};

struct SpecEdits {
  std::vector<EnvEdit> env;
  std::vector<DeviceNodeEdit> device_nodes;
  std::vector<MountEdit> mounts;
  std::vector<SpecHook> hooks;

  bool empty() const { return env.empty() && device_nodes.empty() && mounts.empty() && hooks.empty(); }
};

struct SpecDevice {
  std::string name;  // "0", "GPU-<uuid>", "0:1", "all", "capability-compute"
  SpecEdits edits;
};

struct Spec {
  Version version;
  std::string kind;
  SpecEdits edits;  // spec-level: applied once whatever device is asked
  std::vector<SpecDevice> devices;
};

struct SpecRequest {
  std::string kind;                // "vendor/class"
  std::optional<Version> version;  // none: the lowest the spec's features need
  std::string graft_binary;        // absolute: the hooks' path
  std::string policy_path;         // absolute: the hooks' --policy
  std::string host_root;           // where the inventory read the host ("" = here):
                                   // the spec names host paths without it (host_root.hpp)
  std::optional<GpuCapabilities> gpu_capabilities;  // none: the policy's [cdi] gpu_capabilities
  // Each device's plan held to the policy boundary on the host the
  // inventory read (evaluation/container_plan.hpp check_boundary): what
  // `cdi generate` and `cdi refresh` ask; a synthetic inventory has no host.
  bool check_boundary = false;
};

// Capability devices are named kCapabilityPrefix + the set's name.
inline constexpr const char* kCapabilityPrefix = "capability-";

// The spec for this host. Errors: a planning error, an action CDI cannot
// express (a device rule without its node), a bad kind or device name, or a
// requested version below what a used feature needs (naming the feature).
Result<Spec> generate_spec(const Inventory& inventory, const Policy& policy, const SpecRequest& request);

// The version-gated features the spec uses (cdi_version.hpp).
std::vector<Feature> features_of(const Spec& spec);

}  // namespace graft::cdi
