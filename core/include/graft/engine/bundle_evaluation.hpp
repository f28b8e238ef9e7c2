// SPDX-License-Identifier: Apache-2.0
// A bundle's spec evaluated for a runtime shim before `create`: read as
// `graft plan --bundle` reads config.json, evaluated under the site policy,
// with what the shim must do about it. A refusal is written to the
// policy's audit log here, as `graft plan` writes it; an applied
// container's record is the hook's to write.
#pragma once

#include <optional>
#include <string>

#include "graft/base/error.hpp"
#include "graft/engine/container_edits.hpp"
#include "graft/engine/site_policy.hpp"

namespace graft {

struct BundleSpec {
  std::string bundle;        // the bundle directory (relative paths in the spec start here)
  std::string config_path;   // the spec's file, for messages
  std::string config_text;   // the spec the runtime will read
  std::string container_id;  // as the engine gave it to the runtime
};

// The graft a hook runs and the policy it reads: both absolute, since a
// runtime runs hooks from the bundle directory.
struct GraftHook {
  std::string graft_path;
  std::string policy_path;
};

enum class BundleVerdict {
  untouched,  // not a GPU container: leave the spec as it is
  refused,    // the policy refused: the runtime must not be called
  inject,     // a GPU container: add graft's hook, or (declarative) the edits
};

struct BundleEvaluation {
  BundleVerdict verdict = BundleVerdict::untouched;
  std::string refusal;  // refused: "container ID refused: ..." (one line)
  // Declarative mode only: the plan's native edits, and graft cdi-hook for
  // the actions a spec cannot express (none when there are none).
  NativeEdits edits;
  std::optional<HookCommand> residual_hook;
};

Result<BundleEvaluation> evaluate_bundle(const SitePolicy& policy, const BundleSpec& spec,
                                         const GraftHook& hook);

}  // namespace graft
