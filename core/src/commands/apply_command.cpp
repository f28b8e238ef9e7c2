// SPDX-License-Identifier: Apache-2.0
// `graft apply`: give a running container (LXC-style, no hook) its GPUs.
// Reads the request from flags or a bundle, checks the pid is the named
// container's, and hands both to run_container (engine/run_container.hpp).
// Any failure is one line and a non-zero exit.
#include <cstdio>

#include "apply/cgroup_match.hpp"
#include "commands/command_steps.hpp"
#include "engine/run_container.hpp"
#include "watchdog/running_note.hpp"

namespace graft::commands {

Result<int> report_run(const Result<ContainerRun>& run) {
  if (!run) return run.error();
  if (!run->warning.empty()) std::fprintf(stderr, "graft: warning: %s\n", one_line(run->warning).c_str());
  if (run->outcome == ContainerOutcome::refused) return report_refusal(run->evaluation->plan);
  return exit_ok;
}

namespace {

// The pidfd is taken first, before anything else is read, and held to the
// end. A process in graft's own mount namespace is never a container's, with
// or without --trust-pid (check_mount_namespace); the apply's setns checks
// it again. Then the pid must be the named container's (cgroup_match.hpp).
Result<ContainerProcess> open_container(const ApplyOptions& options) {
  auto process = ContainerProcess::open(options.pid);
  if (!process) return process.error();
  if (auto own = check_not_own_mount_namespace(*process); !own) return own.error();
  if (options.trust_pid) return process;
  if (options.id.empty())
    return make_error(
        "--pid {}: give the container's --id, so graft can check that the process is its "
        "(its cgroup names the id), or --trust-pid to skip that check",
        options.pid);
  if (auto checked = check_process_is_container(*process, options.id); !checked)
    return checked.error();
  return process;
}

Result<Request> apply_request_of(const ApplyOptions& options) {
  RunningNote note("container " + options.id + ": reading the request");
  Result<Request> request =
      options.bundle.empty()
          ? request_from_flags(options.env, options.annotations, options.privileged, options.rootfs)
          : request_from_bundle(options.bundle, options.id, options.pid);
  if (!request) return request.error();
  request->container_id = options.id.empty() ? "apply" : options.id;
  request->pid = options.pid;
  if (!options.rootfs.empty()) request->rootfs = options.rootfs;
  return request;
}

}  // namespace

Result<int> run_apply(const GlobalOptions& global, const ApplyOptions& options) {
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  deadline.limit_to(policy->limits.deadline_ms);
  auto process = open_container(options);
  if (!process) return process.error().context("container " + (options.id.empty() ? "apply" : options.id));
  auto request = apply_request_of(options);
  if (!request) return request.error();
  return report_run(run_container(*policy, deadline, *request, {*process, ApplyCaller::apply}));
}

}  // namespace graft::commands
