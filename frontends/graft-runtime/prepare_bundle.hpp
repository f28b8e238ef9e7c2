// SPDX-License-Identifier: Apache-2.0
// What graft-runtime does to a bundle before `create`, `run` or `restore`
// reaches the real runtime: read the spec the runtime will read as `graft
// plan --bundle` reads config.json, evaluate the container, and leave the
// file as it was (a container that asks for no GPU), refuse (the policy
// said no), or edit it in the policy's mode.
#pragma once

#include <string>
#include <vector>

#include "bundle_config.hpp"
#include "config_edit.hpp"
#include "graft/base/error.hpp"
#include "graft/engine/container_edits.hpp"
#include "graft/engine/site_policy.hpp"

namespace graft::runtime {

enum class BundleOutcome {
  untouched,  // not a GPU container: config.json byte for byte as it was
  edited,     // graft's hook (hook mode) or the plan (declarative) is in config.json
  refused,    // the policy refused: the runtime must not be called
  // a GPU container whose spec is not <bundle>/config.json (crun's
  // --config): graft's hooks would read another file than the runtime
  // runs, so the runtime must not be called
  config_elsewhere,
};

struct PreparedBundle {
  BundleOutcome outcome = BundleOutcome::untouched;
  std::string refusal;  // refused, config_elsewhere: graft's one line, "container ID refused: ..."
  std::vector<DeviceNodeEdit> spec_devices;  // declarative: the device nodes now in the spec
};

// `container_id` is the one the engine gave the runtime. A refusal is also
// written to the policy's audit log, as `graft plan` writes it; an applied
// container's record is the hook's to write.
Result<PreparedBundle> prepare_bundle(const SitePolicy& policy, const BundleFiles& files,
                                      const std::string& container_id, const GraftHook& hook);

}  // namespace graft::runtime
