// SPDX-License-Identifier: Apache-2.0
// `graft hook [prestart|createRuntime]`: the OCI runtime hook. Reads the
// state JSON on stdin, loads config.json from the bundle it names, and
// applies the plan `graft plan --bundle` prints for the same container.
// Both stages run at the same point in runc and crun (namespaces made,
// mounts done, before pivot_root), in the runtime's namespaces; the name is
// accepted for the record. createContainer is refused: it runs inside the
// container's namespaces (its /proc is the container's, its pid may be seen
// from there), where graft can neither trust nor find what it needs.
// The state's pid is held by a pidfd at once, before the bundle is read.
// The deadline comes first (the default one, until the policy sets its own),
// so it bounds everything, the policy and stdin included, since a runtime
// may wait on the hook without a limit.
#include <unistd.h>

#include "commands/command_steps.hpp"
#include "engine/run_container.hpp"
#include "watchdog/running_note.hpp"
#include "request/oci_state.hpp"

namespace graft::commands {
namespace {

Result<OciState> read_state() {
  RunningNote note("reading the OCI state on stdin");
  auto text = read_oci_state_text(STDIN_FILENO);
  if (!text) return text.error();
  return parse_oci_state(*text);
}

}  // namespace

Result<HookInput> read_hook_input() {
  auto state = read_state();
  if (!state) return state.error();
  const std::string where = "container " + state->id;
  auto process = ContainerProcess::open(state->pid);
  if (!process) return process.error().context(where);
  RunningNote note(where + ": reading the bundle");
  auto request = request_from_state(*state);
  if (!request) return request.error().context(where);
  return HookInput{std::move(*request), std::move(*process)};
}

Status check_hook_stage(const std::string& command, const std::string& stage) {
  if (stage != "createContainer") return ok_status();
  return make_error(
      "{} createContainer is refused: that hook runs inside the container's namespaces "
      "(its /proc and pid are the container's), where graft cannot check what it enters; "
      "use prestart or createRuntime",
      command);
}

Result<HookStart> start_hook(const GlobalOptions& global, Deadline& deadline) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  deadline.limit_to(policy->limits.deadline_ms);
  auto input = read_hook_input();
  if (!input) return input.error();
  return HookStart{std::move(*policy), std::move(*input)};
}

Result<int> run_hook(const GlobalOptions& global, const std::string& stage) {
  if (auto allowed = check_hook_stage("hook", stage); !allowed) return allowed.error();
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto start = start_hook(global, deadline);
  if (!start) return start.error();
  const HookInput& input = start->input;
  return report_run(run_container(start->policy, deadline, input.request, {input.process, ApplyCaller::hook}));
}

}  // namespace graft::commands
