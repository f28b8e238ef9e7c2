// SPDX-License-Identifier: Apache-2.0
// What graft-runtime changes in a bundle's config.json, as pure functions
// over the parsed document. nlohmann::ordered_json keeps every field graft
// does not know, in its place, so the runtime reads back what the engine
// wrote plus graft's change and nothing else. Hook mode adds graft's hook
// (here); declarative mode writes the plan itself (config_plan_edit.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"
#include "graft/engine/bundle_evaluation.hpp"
#include "graft/engine/container_edits.hpp"

namespace graft::runtime {

using ordered_json = nlohmann::ordered_json;

// What graft-runtime's hooks run.
// `graft --policy POLICY hook createRuntime`, with an env of PATH alone
// (kHookPath): runc runs a hook with exactly that env, so nothing of the
// image's (LD_PRELOAD) or of the engine's environment reaches graft.
HookCommand graft_hook_command(const GraftHook& hook);

// One hooks.<stage> entry: {"path", "args", "env"}.
ordered_json hook_entry(const HookCommand& hook);

// Whether one hook entry runs graft's hook or cdi-hook: a `graft` binary
// with `hook` or `cdi-hook` among its arguments (inserted by graft-runtime,
// by hooks.d, by a CDI spec or by hand).
bool is_graft_hook(const ordered_json& entry);

// Whether any stage of config's hooks runs graft; an error when hooks has
// the wrong shape.
Result<bool> has_graft_hook(const ordered_json& config);

// Appends `hook` to hooks.createRuntime, after the hooks already there.
Status append_create_runtime_hook(ordered_json& config, const HookCommand& hook);

// Hook mode: graft's hook appended to hooks.createRuntime unless some
// stage already runs graft. Returns whether it changed `config`.
Result<bool> add_graft_hook(ordered_json& config, const GraftHook& hook);

}  // namespace graft::runtime
