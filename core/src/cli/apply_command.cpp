// `graft apply` and the path `graft hook` shares with it: evaluate one
// container, load the plugins, carry out the plan inside the running
// container, and record the outcome. Any failure is one line and a non-zero
// exit: a runtime that calls us refuses to start the container. The
// deadline runs until the record is written; should it pass first, its
// handler writes the error record in this one's place.
#include <unistd.h>

#include <chrono>
#include <optional>

#include "apply/apply_plan.hpp"
#include "apply/cgroup_match.hpp"
#include "audit/audit_log.hpp"
#include "audit/late_error_record.hpp"
#include "cli/commands.hpp"
#include "engine/container_plan.hpp"
#include "fault/running_note.hpp"
#include "graft/base/unique_fd.hpp"
#include "plugin_host/plugin_loader.hpp"

namespace graft::cli {
namespace {

// The audit log, opened in graft's own mount namespace: applying enters the
// container's, where the host's log path may be missing or another file.
struct AuditLog {
  const Policy& policy;
  UniqueFd fd;
};

// What became of one container: the command's result and its audit record.
struct Outcome {
  Result<int> result = exit_ok;
  const char* recorded = nullptr;  // "applied", "refused", "error"; null: no record
  std::optional<ContainerPlan> evaluation;
  std::optional<ApplyReport> applied;
};

Status audit(const AuditLog& log, const Request& request, const Outcome& outcome) {
  std::string error = outcome.result ? "" : outcome.result.error().message;
  AuditRecord record{request, outcome.evaluation ? &*outcome.evaluation : nullptr, outcome.recorded,
                     error, log.policy.audit_env, outcome.applied ? &*outcome.applied : nullptr};
  return append_audit_record(log.fd.get(), log.policy.audit_log, record);
}

// From here on, a deadline that passes writes the record an error here would.
void record_if_late(Deadline& deadline, const AuditLog& log, const Request& request,
                    const ContainerPlan* evaluation) {
  if (!log.fd.valid()) return;
  deadline.also_record(log.fd.get(), late_error_record({request, evaluation, "error", "",
                                                        log.policy.audit_env}));
}

// A hook that fails is fail-closed: the runtime kills the container. `graft
// apply` changed a running container that stays, so its error says what of
// the plan is left there.
Result<ApplyReport> load_and_apply(const Policy& policy, const Request& request, const Plan& plan,
                                   const Container& container) {
  auto start = std::chrono::steady_clock::now();
  auto plugins = load_plugins(policy);
  if (!plugins) return plugins.error();
  double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ApplySite site{.container_id = request.container_id, .process = &container.process,
                 .caller = container.caller, .rootfs = request.rootfs,
                 .source_root = policy.host.driver_root};
  ApplyProgress progress;
  auto report = apply_plan(plan, *plugins, site, &progress);
  if (report) report->times.load_ms = load_ms;
  if (!report && container.caller == ApplyCaller::apply && left_changes(progress))
    return Error{describe_stop(plan, progress, report.error())};
  return report;  // the plugins are destroyed here, still inside the deadline
}

Outcome evaluate_and_apply(const AuditLog& log, Deadline& deadline, const Request& request,
                           const Container& container) {
  RunningNote note("container " + request.container_id);
  record_if_late(deadline, log, request, nullptr);
  Outcome outcome;
  auto evaluation = plan_container(request, log.policy);
  if (!evaluation) return {evaluation.error(), "error"};
  const Plan& plan = outcome.evaluation.emplace(std::move(evaluation).value()).plan;
  if (plan.intent.refusal) return {exit_refused, "refused", std::move(outcome.evaluation)};
  if (!plan.inject) return outcome;  // not a GPU container: touch nothing
  if (request.rootfs.empty()) return {make_error("container {}: no root path", request.container_id)};
  record_if_late(deadline, log, request, &*outcome.evaluation);
  auto report = load_and_apply(log.policy, request, plan, container);
  if (!report) {
    outcome.result = report.error().context("container " + request.container_id);
    outcome.recorded = "error";
    return outcome;
  }
  outcome.applied = std::move(report).value();
  outcome.recorded = "applied";
  return outcome;
}

}  // namespace

Result<int> apply_request(const Policy& policy, Deadline& deadline, const Request& request,
                          const Container& container) {
  auto log_fd = open_audit_log(policy.audit_log);
  if (!log_fd) return log_fd.error();
  AuditLog log{policy, UniqueFd(*log_fd)};
  Outcome outcome = evaluate_and_apply(log, deadline, request, container);
  deadline.disarm();  // the record below is then the only one, and whole
  if (outcome.recorded == nullptr) return outcome.result;
  Status logged = audit(log, request, outcome);
  if (!outcome.result) return outcome.result;  // the first error, whether or not it was logged
  if (!logged) return logged.error();
  if (*outcome.result == exit_refused) return report_refusal(outcome.evaluation->plan);
  return outcome.result;
}

namespace {

struct ApplyOptions {
  int pid = 0;
  std::string rootfs, bundle, id;
  std::vector<std::string> env, annotations;
  bool privileged = false;
  bool trust_pid = false;  // the caller vouches that pid is the container's
};

// The pidfd is taken first, before anything else is read, and held to the
// end; then the pid must be the named container's (cgroup_match.hpp).
Result<ContainerProcess> open_container(const ApplyOptions& options) {
  auto process = ContainerProcess::open(options.pid);
  if (!process) return process.error();
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

Result<int> run_apply(const GlobalOptions& global, const ApplyOptions& options) {
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  deadline.limit_to(policy->limits.deadline_ms);
  auto process = open_container(options);
  if (!process) return process.error().context("container " + (options.id.empty() ? "apply" : options.id));
  auto request = apply_request_of(options);
  if (!request) return request.error();
  return apply_request(*policy, deadline, *request, {*process, ApplyCaller::apply});
}

}  // namespace

Runner add_apply_command(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ApplyOptions>();
  auto* command = app.add_subcommand(
      "apply", "Give a running container its GPUs (runtimes without hooks, LXC-style)");
  command->footer(
      "Example:\n"
      "  graft apply --id web1 --pid 4242 --rootfs / --bundle /var/lib/lxc/web1");
  command->add_option("--pid", options->pid, "The container's init process")
      ->required()->check(CLI::PositiveNumber);
  command->add_option("--rootfs", options->rootfs,
                      "The container's root, as a path in its mount namespace")->required();
  auto* bundle = command->add_option("--bundle", options->bundle, "OCI bundle with config.json");
  command->add_option("--id", options->id,
                      "Container id: its cgroup must name it; messages and the audit log use it");
  command->add_flag("--trust-pid", options->trust_pid,
                    "Do not check that --pid is in a cgroup named after --id");
  auto* env = command->add_option("--env", options->env, "Container env KEY=VALUE (repeatable)");
  command->add_option("--annotation", options->annotations, "Annotation KEY=VALUE (repeatable)");
  command->add_flag("--privileged", options->privileged, "Treat the container as privileged");
  bundle->excludes(env);
  return [&global, options] { return run_apply(global, *options); };
}

}  // namespace graft::cli
