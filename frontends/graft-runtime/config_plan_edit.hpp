// SPDX-License-Identifier: Apache-2.0
// Declarative mode: a plan written into config.json itself, so the runtime
// carries out what it can (split_plan, core/src/container_edits/container_edits.hpp):
// device nodes into linux.devices, their rules into linux.resources.devices,
// binds into mounts, env into process.env; what only graft can do (links,
// the ld cache, the procfs mask, files) stays for one `graft cdi-hook`
// createRuntime hook. Pure. Each edit is made once: writing the same plan
// into a config that already has it changes nothing (an engine retrying
// create hands the runtime the same bundle).
#pragma once

#include <optional>

#include "config_edit.hpp"
#include "graft/engine/container_edits.hpp"

namespace graft::runtime {

// Writes `edits` (not their residual actions) into `config`, and
// `residual_hook` (graft cdi-hook with those actions) when there is one.
// A config where some stage already runs graft (hooks.d's hook, a CDI
// spec's cdi-hook, an earlier edit) is left as it is: that hook applies the
// plan. Returns whether it changed `config`; an error when a field it must
// extend has the wrong shape.
Result<bool> write_plan_edits(ordered_json& config, const NativeEdits& edits,
                              const std::optional<HookCommand>& residual_hook);

}  // namespace graft::runtime
