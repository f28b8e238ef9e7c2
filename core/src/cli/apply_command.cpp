// `graft apply` and the path `graft hook` shares with it: evaluate one
// container, load the plugins, carry out the plan inside the running
// container, and record the outcome. Any failure is one line and a non-zero
// exit: a runtime that calls us refuses to start the container.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "apply/apply_plan.hpp"
#include "audit/audit_log.hpp"
#include "cli/commands.hpp"
#include "engine/evaluate.hpp"
#include "plugins/plugin_loader.hpp"

namespace graft::cli {
namespace {

// The audit log, opened in graft's own mount namespace: applying enters the
// container's, where the host's log path may be missing or another file.
struct AuditLog {
  const Policy& policy;
  int fd = -1;
  ~AuditLog() {
    if (fd >= 0) ::close(fd);
  }
};

Status audit(const AuditLog& log, const Request& request, const Evaluation* evaluation,
             const char* outcome, const std::string& error, const ApplyReport* applied) {
  AuditRecord record{request, evaluation, outcome, error, log.policy.audit_env, applied};
  return append_audit_record(log.fd, log.policy.audit_log, record);
}

Result<ApplyReport> load_and_apply(const Policy& policy, const Request& request, const Plan& plan) {
  auto start = std::chrono::steady_clock::now();
  auto plugins = load_plugins(policy);
  if (!plugins) return plugins.error();
  double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ApplySite site{.container_id = request.container_id, .pid = request.pid, .rootfs = request.rootfs};
  auto report = apply_plan(plan, *plugins, site);
  if (report) report->times.load_ms = load_ms;
  return report;
}

}  // namespace

Result<int> apply_request(const GlobalOptions& global, const Request& request) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto log_fd = open_audit_log(policy->audit_log);
  if (!log_fd) return log_fd.error();
  AuditLog log{*policy, *log_fd};
  auto evaluation = evaluate_container(request, *policy);
  if (!evaluation) {
    (void)audit(log, request, nullptr, "error", evaluation.error().message, nullptr);
    return evaluation.error();
  }
  const Plan& plan = evaluation->plan;
  if (plan.intent.refusal) {
    if (auto logged = audit(log, request, &*evaluation, "refused", "", nullptr); !logged)
      return logged.error();
    return report_refusal(plan);
  }
  if (!plan.inject) return exit_ok;  // not a GPU container: touch nothing
  if (request.rootfs.empty()) return make_error("container {}: no root path", request.container_id);
  auto report = load_and_apply(*policy, request, plan);
  if (!report) {
    Error error = report.error().context("container " + request.container_id);
    (void)audit(log, request, &*evaluation, "error", error.message, nullptr);
    return error;
  }
  if (auto logged = audit(log, request, &*evaluation, "applied", "", &*report); !logged)
    return logged.error();
  return exit_ok;
}

namespace {

struct ApplyOptions {
  int pid = 0;
  std::string rootfs, bundle, id = "apply";
  std::vector<std::string> env, annotations;
  bool privileged = false;
};

Result<int> run_apply(const GlobalOptions& global, const ApplyOptions& options) {
  Result<Request> request =
      options.bundle.empty()
          ? request_from_flags(options.env, options.annotations, options.privileged, options.rootfs)
          : request_from_bundle(options.bundle, options.id, options.pid);
  if (!request) return request.error();
  request->container_id = options.id;
  request->pid = options.pid;
  if (!options.rootfs.empty()) request->rootfs = options.rootfs;
  return apply_request(global, *request);
}

}  // namespace

Runner add_apply_command(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ApplyOptions>();
  auto* command = app.add_subcommand(
      "apply", "Give a running container its GPUs (runtimes without hooks, LXC-style)");
  command->add_option("--pid", options->pid, "The container's init process")
      ->required()->check(CLI::PositiveNumber);
  command->add_option("--rootfs", options->rootfs,
                      "The container's root, as a path in its mount namespace")->required();
  auto* bundle = command->add_option("--bundle", options->bundle, "OCI bundle with config.json");
  command->add_option("--id", options->id, "Container id for messages and the audit log");
  auto* env = command->add_option("--env", options->env, "Container env KEY=VALUE (repeatable)");
  command->add_option("--annotation", options->annotations, "Annotation KEY=VALUE (repeatable)");
  command->add_flag("--privileged", options->privileged, "Treat the container as privileged");
  bundle->excludes(env);
  return [&global, options] { return run_apply(global, *options); };
}

}  // namespace graft::cli
