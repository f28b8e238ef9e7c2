// SPDX-License-Identifier: Apache-2.0
// `graft cdi-hook [createRuntime|prestart] --link PATH::VALUE ...`: the OCI
// hook a CDI spec (or a config.json that graft edited) carries for what the
// spec cannot say itself: links, the ld cache, the procfs mask, files
// (container_edits/container_edits.hpp). Nothing is evaluated: the plan is exactly the
// actions its options name (container_edits/hook_arguments.hpp), so the spec an
// auditor reads says what the hook does. Everything else is `graft hook`'s:
// the state on stdin with the pid held by a pidfd first, the bundle's root,
// the site policy's plugins, deadline and audit log, the same plugins with
// their in-root lookups; createContainer is refused for the same reason.
#include "commands/command_steps.hpp"

namespace graft::commands {
namespace {

Result<ContainerPlan> hook_plan(const Request& request, const CdiHookActions& options) {
  auto actions = actions_from_cdi_hook(options, request.device_paths);
  if (!actions) return actions.error().context("container " + request.container_id);
  ContainerPlan evaluation;
  Plan& plan = evaluation.plan;
  plan.container_id = request.container_id;
  plan.bundle = request.bundle;
  plan.actions = std::move(*actions);
  plan.inject = !plan.actions.empty();
  return evaluation;
}

}  // namespace

Result<int> run_cdi_hook(const GlobalOptions& global, const CdiHookOptions& options) {
  if (auto allowed = check_hook_stage("cdi-hook", options.stage); !allowed) return allowed.error();
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto start = start_hook(global, deadline);
  if (!start) return start.error();
  const HookInput& input = start->input;
  auto evaluation = hook_plan(input.request, options.actions);
  if (!evaluation) return evaluation.error();
  return report_run(run_container_plan(start->policy, deadline, input.request, std::move(*evaluation),
                                       {input.process, ApplyCaller::hook}));
}

}  // namespace graft::commands
