// SPDX-License-Identifier: Apache-2.0
// `graft verify`: compares a running container with its plan and prints
// what differs (verify/verify_plan.hpp), one line each; exit 0 when nothing
// drifted, 1 on drift (or when something cannot be told, or on an error).
// The container is found as its hook found it: by ID, the OCI runtime's
// state gives its pid and bundle (verify/runtime_state.hpp); or by --pid
// with the request given as for `graft apply`. The plan is evaluated again
// from the same request and the current policy and host, exactly as `graft
// plan` would print it. Nothing is changed: repairing is not done here.
#include <cstdio>

#include "apply/cgroup_match.hpp"
#include "commands/command_steps.hpp"
#include "evaluation/container_plan.hpp"
#include "watchdog/running_note.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "render/render.hpp"
#include "render/verify_render.hpp"
#include "verify/runtime_state.hpp"
#include "verify/verify_plan.hpp"

namespace graft::commands {
namespace {

// The container to verify: its init, held from the moment its pid is
// known, and what it asked for.
struct VerifiedTarget {
  ContainerProcess process;
  Request request;
};

// By ID: the runtime's state, then the hook's own reading of it.
Result<VerifiedTarget> target_by_id(const Policy& policy, const VerifyOptions& options) {
  RunningNote note("container " + options.id + ": asking its runtime for its state");
  auto state = query_runtime_state({.runtime = options.runtime.empty() ? policy.runtime.path
                                                                        : options.runtime,
                                    .root = options.runtime_root,
                                    .id = options.id});
  if (!state) return state.error();
  auto process = ContainerProcess::open(state->pid);
  if (!process) return process.error();
  auto request = request_from_state(*state);
  if (!request) return request.error();
  return VerifiedTarget{std::move(*process), std::move(*request)};
}

// By --pid: checked to be container ID's (its cgroup names it) unless
// --trust-pid; the request from --bundle or the flags, the image layout
// read through the process's own root.
Result<VerifiedTarget> target_by_pid(const VerifyOptions& options) {
  auto process = ContainerProcess::open(options.pid);
  if (!process) return process.error();
  if (!options.trust_pid) {
    if (options.id.empty())
      return make_error("--pid {}: give the container's ID as well, so graft can check that the "
                        "process is its (its cgroup names the id), or --trust-pid",
                        options.pid);
    if (auto checked = check_process_is_container(*process, options.id); !checked)
      return checked.error();
  }
  auto request = options.bundle.empty()
                     ? request_from_flags(options.env, options.annotations, options.privileged,
                                          "/proc/" + std::to_string(options.pid) + "/root")
                     : request_from_bundle(options.bundle, options.id, options.pid);
  if (!request) return request.error();
  request->container_id = options.id;
  request->pid = options.pid;
  return VerifiedTarget{std::move(*process), std::move(*request)};
}

Result<VerifyReport> verify_container(const Policy& policy, const Plan& plan,
                                      const VerifiedTarget& target) {
  if (plan.actions.empty()) return VerifyReport{};  // no GPU asked for: nothing to compare
  auto plugins = load_plugins(policy);
  if (!plugins) return plugins.error();
  return verify_plan(plan, *plugins,
                     {.container_id = target.request.container_id,
                      .process = target.process,
                      .source_root = policy.host.driver_root});
}

void print_report(const VerifyOptions& options, const VerifiedContainer& container,
                  const VerifyReport& report) {
  // What plugins found may quote the image's own bytes: not always UTF-8.
  if (options.format == "json")
    std::printf("%s\n", render_verify_json(container, report)
                            .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                            .c_str());
  else
    std::fputs(render_verify_text(container, report).c_str(), stdout);
}

}  // namespace

Result<int> run_verify(const GlobalOptions& global, const VerifyOptions& options) {
  if (options.id.empty() && options.pid <= 0) {
    std::fprintf(stderr, "graft: verify: give the container's ID (its runtime reports its pid and "
                         "bundle) or --pid PID\n");
    return exit_usage;
  }
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  deadline.limit_to(policy->limits.deadline_ms);
  const std::string where = options.id.empty() ? "process " + std::to_string(options.pid)
                                               : "container " + options.id;
  auto target = options.pid > 0 ? target_by_pid(options) : target_by_id(*policy, options);
  if (!target) return target.error().context(where);
  auto evaluation = plan_container(target->request, *policy);
  if (!evaluation) return evaluation.error();
  const Plan& plan = evaluation->plan;
  if (plan.intent.refusal) return report_refusal(plan);
  RunningNote note(where + ": verifying");
  auto report = verify_container(*policy, plan, *target);
  if (!report) return report.error().context(where);
  print_report(options, {options.id, target->process.pid()}, *report);
  return report->drifted() ? exit_error : exit_ok;
}

}  // namespace graft::commands
