// SPDX-License-Identifier: Apache-2.0
#include "engine/run_container.hpp"

#include <unistd.h>

#include <chrono>
#include <functional>

#include "audit/audit_log.hpp"
#include "audit/late_error_record.hpp"
#include "claims/gpu_claims.hpp"
#include "engine/plain_request.hpp"
#include "watchdog/running_note.hpp"
#include "graft/base/unique_fd.hpp"
#include "plugin_host/plugin_loader.hpp"

namespace graft {
namespace {

// The audit log, opened in graft's own mount namespace: applying enters the
// container's, where the host's log path may be missing or another file.
struct AuditLog {
  const Policy& policy;
  UniqueFd fd;  // invalid when the policy names no log
};

// A run and how it ended: an error makes its outcome `error`.
struct Attempt {
  Status status = ok_status();
  ContainerRun run;
};

Attempt& failed(Attempt& attempt, Error error) {
  attempt.status = std::move(error);
  attempt.run.outcome = ContainerOutcome::error;
  return attempt;
}

Status audit(const AuditLog& log, const Request& request, const Attempt& attempt) {
  std::string error = attempt.status ? "" : attempt.status.error().message;
  const ContainerRun& run = attempt.run;
  AuditRecord record{request, run.evaluation ? &*run.evaluation : nullptr, run.outcome,
                     error, log.policy.audit_env, run.applied ? &*run.applied : nullptr};
  return append_audit_record(log.fd.get(), log.policy.audit_log, record);
}

// From here on, a deadline that passes writes the record an error here would.
void record_if_late(Deadline& deadline, const AuditLog& log, const Request& request,
                    const ContainerPlan* evaluation) {
  if (!log.fd.valid()) return;
  deadline.also_record(log.fd.get(), late_error_record({request, evaluation, ContainerOutcome::error, "",
                                                  log.policy.audit_env}));
}

// A hook that fails is fail-closed: the runtime kills the container. `graft
// apply` changed a running container that stays, so its error says what of
// the plan is left there.
Result<ApplyReport> load_and_apply(const Policy& policy, const Request& request, const Plan& plan,
                                   const RunningContainer& container) {
  auto start = std::chrono::steady_clock::now();
  auto plugins = load_plugins(policy);
  if (!plugins) return plugins.error();
  double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ApplySite site{.container_id = request.container_id, .process = &container.process,
                 .rootfs = request.rootfs, .source_root = policy.host.driver_root};
  ApplyProgress progress;
  auto report = apply_plan(plan, *plugins, site, &progress);
  if (report) report->times.load_ms = load_ms;
  if (!report && container.caller == ApplyCaller::apply && left_changes(progress))
    return Error{describe_stop(plan, progress, report.error())};
  return report;  // the plugins are destroyed here, still inside the deadline
}

using Evaluate = std::function<Result<ContainerPlan>()>;

Attempt evaluate_and_apply(const AuditLog& log, Deadline& deadline, const Request& request,
                           const Evaluate& evaluate, const RunningContainer& container) {
  RunningNote note("container " + request.container_id);
  record_if_late(deadline, log, request, nullptr);
  Attempt attempt;
  auto evaluation = evaluate();
  if (!evaluation) {
    auto warning = pass_through_without_rules(log.policy, request, evaluation.error());
    if (!warning) return failed(attempt, evaluation.error());
    attempt.run.warning = std::move(*warning);  // untouched, as a container that asks for nothing
    return attempt;
  }
  const Plan& plan = attempt.run.evaluation.emplace(std::move(evaluation).value()).plan;
  if (plan.intent.refusal) {
    attempt.run.outcome = ContainerOutcome::refused;
    return attempt;
  }
  if (!plan.inject) return attempt;  // not a GPU container: touch nothing
  if (request.rootfs.empty())
    return failed(attempt, make_error("container {}: no root path", request.container_id));
  record_if_late(deadline, log, request, &*attempt.run.evaluation);
  auto held = claim_granted_devices(log.policy, *attempt.run.evaluation, request.container_id, container.process);
  if (!held) return failed(attempt, held.error());
  if (*held) {  // refused at the last moment: the plan says so, as a rule's refusal would
    attempt.run.evaluation->plan.intent.refusal = std::move(**held);
    attempt.run.outcome = ContainerOutcome::refused;
    return attempt;
  }
  auto report = load_and_apply(log.policy, request, plan, container);
  if (!report) return failed(attempt, report.error().context("container " + request.container_id));
  attempt.run.applied = std::move(report).value();
  attempt.run.outcome = ContainerOutcome::applied;
  return attempt;
}

Result<ContainerRun> run_evaluated(const Policy& policy, Deadline& deadline, const Request& request,
                                   const Evaluate& evaluate, const RunningContainer& container) {
  auto log_fd = open_audit_log(policy.audit_log);
  if (!log_fd) return log_fd.error().context("container " + request.container_id);
  AuditLog log{policy, UniqueFd(*log_fd)};
  Attempt attempt = evaluate_and_apply(log, deadline, request, evaluate, container);
  deadline.disarm();  // the record below is then the only one, and whole
  if (attempt.run.outcome == ContainerOutcome::untouched) return std::move(attempt.run);
  Status logged = audit(log, request, attempt);
  if (!attempt.status) return attempt.status.error();  // the first error, logged or not
  if (!logged) return logged.error();
  return std::move(attempt.run);
}

}  // namespace

Result<ContainerRun> run_container(const Policy& policy, Deadline& deadline, const Request& request,
                                   const RunningContainer& container) {
  return run_evaluated(policy, deadline, request, [&] { return plan_container(request, policy); },
                       container);
}

Result<ContainerRun> run_container_plan(const Policy& policy, Deadline& deadline,
                                        const Request& request, ContainerPlan evaluation,
                                        const RunningContainer& container) {
  return run_evaluated(policy, deadline, request,
                       [&]() -> Result<ContainerPlan> { return std::move(evaluation); }, container);
}

}  // namespace graft
