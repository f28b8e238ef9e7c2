// What graft-runtime changes in a bundle's config.json, as pure functions
// over the parsed document. nlohmann::ordered_json keeps every field graft
// does not know, in its place, so the runtime reads back what the engine
// wrote plus graft's change and nothing else.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"

namespace graft::runtime {

using ordered_json = nlohmann::ordered_json;

// The hook graft-runtime inserts: `graft --policy POLICY hook createRuntime`.
struct GraftHook {
  std::string graft_path;   // absolute: the graft binary next to graft-runtime
  std::string policy_path;  // absolute: the policy graft-runtime read
};

// The hooks.createRuntime entry for `hook`. Its env holds PATH and nothing
// else: runc runs a hook with exactly that env, so nothing of the image's
// (LD_PRELOAD) or of the engine's environment reaches graft.
ordered_json graft_hook_entry(const GraftHook& hook);

// Whether one hook entry runs graft's hook: a `graft` binary with `hook`
// among its arguments (inserted by graft-runtime, by hooks.d or by hand).
bool is_graft_hook(const ordered_json& entry);

// Appends graft's hook to hooks.createRuntime, after the hooks already
// there, unless some stage already runs graft's hook. Returns whether it
// changed `config`; an error when hooks has the wrong shape.
Result<bool> add_graft_hook(ordered_json& config, const GraftHook& hook);

}  // namespace graft::runtime
