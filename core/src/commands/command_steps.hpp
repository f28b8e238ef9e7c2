// SPDX-License-Identifier: Apache-2.0
// What the `graft` subcommands (graft/engine/commands.hpp) share inside the
// engine: the site policy of the global options, the hooks' input and
// start, and the exits of a refusal and of a run.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/one_line.hpp"
#include "engine/run_container.hpp"
#include "graft/engine/commands.hpp"
#include "graft/engine/deadline.hpp"
#include "graft/engine/exit_code.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft::commands {

// Loads the site policy named by the global options (the edge where search
// paths are decided).
Result<Policy> load_site_policy(const GlobalOptions& options);

// What a hook reads before anything else: the OCI state on stdin, the
// container's init held by a pidfd at once, then the bundle's request.
struct HookInput {
  Request request;
  ContainerProcess process;
};
Result<HookInput> read_hook_input();

// What both hooks do once the deadline is armed: the site policy (whose
// deadline then bounds the rest), then the hook's input.
struct HookStart {
  Policy policy;
  HookInput input;
};
Result<HookStart> start_hook(const GlobalOptions& global, Deadline& deadline);

// Hooks (`graft hook`, `graft cdi-hook`) refuse the createContainer stage;
// `command` names the one refusing.
Status check_hook_stage(const std::string& command, const std::string& stage);

// Prints the plan's refusal as one stderr line naming the rule; returns
// exit_refused. `plan` must carry a refusal.
int report_refusal(const Plan& plan);

// The exit of `graft hook` and `graft apply` for a run (engine/run_container.hpp):
// ok, the refusal line and exit_refused, or the error.
Result<int> report_run(const Result<ContainerRun>& run);

}  // namespace graft::commands
