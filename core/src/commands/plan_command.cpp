// SPDX-License-Identifier: Apache-2.0
// `graft plan`: evaluates one container (from a bundle, or from flags for an
// audit) and prints the plan without touching anything. A dry run leaves the
// audit log alone; with --record it logs the evaluation as the hook would
// (planned, refused, or error, a deadline passing included). --explain
// follows the plan with every rule in the order it ran (text), or adds an
// "explain" array to the JSON document; when a rule fails there is no plan,
// and the text still lists the rules up to the failing one.
#include <cstdio>

#include "audit/audit_log.hpp"
#include "audit/late_error_record.hpp"
#include "commands/command_steps.hpp"
#include "evaluation/container_plan.hpp"
#include "watchdog/running_note.hpp"
#include "graft/base/unique_fd.hpp"
#include "render/explain_render.hpp"
#include "render/render.hpp"

namespace graft::commands {
namespace {

Result<Request> build_request(const PlanOptions& options) {
  if (!options.bundle.empty())
    return request_from_bundle(options.bundle, options.id.empty() ? "bundle" : options.id, 0);
  auto request = request_from_flags(options.env, options.annotations, options.privileged,
                                    options.rootfs);
  if (request && !options.id.empty()) request->container_id = options.id;
  return request;
}

// The audit log when --record asks for it (invalid otherwise, or when the
// policy names none), armed so that a deadline passing is recorded too.
Result<UniqueFd> open_record_log(const PlanOptions& options, const Policy& policy, const Request& request,
                                 Deadline& deadline) {
  if (!options.record) return UniqueFd();
  auto fd = open_audit_log(policy.audit_log);
  if (!fd) return fd.error();
  UniqueFd log(*fd);
  if (log.valid())
    deadline.also_record(log.get(), late_error_record({request, nullptr, ContainerOutcome::error, "",
                                                       policy.audit_env}));
  return log;
}

}  // namespace

Result<int> run_plan(const GlobalOptions& global, const PlanOptions& options) {
  Deadline deadline(Limits{}.deadline_ms);  // armed before anything is read
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  deadline.limit_to(policy->limits.deadline_ms);  // rules run here as under the hook
  auto request = build_request(options);
  if (!request) return request.error();
  auto log = open_record_log(options, *policy, *request, deadline);
  if (!log) return log.error();
  if (options.record && policy->audit_log.empty())
    std::fprintf(stderr, "graft: --record: %s sets no [audit] log, so nothing is written\n",
                 global.policy_path.c_str());
  std::vector<RuleActivity> explained;
  auto evaluation = [&] {
    RunningNote note("container " + request->container_id);
    return plan_container(*request, *policy, options.explain ? &explained : nullptr);
  }();
  deadline.disarm();  // printing and the record are not cut short
  if (!evaluation) {
    // The rules up to the one that failed (its reads say what it was looking at).
    if (options.explain && !explained.empty() && options.format == "text")
      std::fputs(render_explain_text(explained).c_str(), stdout);
    AuditRecord record{*request, nullptr, ContainerOutcome::error, evaluation.error().message, policy->audit_env};
    (void)append_audit_record(log->get(), policy->audit_log, record);  // the evaluation's error comes first
    return evaluation.error();
  }
  const Plan& plan = evaluation->plan;
  if (options.format == "json") {
    nlohmann::json document = render_plan_json(plan);
    if (options.explain) document["explain"] = render_explain_json(explained);
    std::printf("%s\n", document.dump(2).c_str());
  } else {
    std::fputs(render_plan_text(plan).c_str(), stdout);
    if (options.explain) std::fputs(render_explain_text(explained).c_str(), stdout);
  }
  bool refused = plan.intent.refusal.has_value();
  AuditRecord record{*request, &*evaluation, refused ? ContainerOutcome::refused : ContainerOutcome::planned, "",
                     policy->audit_env};
  if (auto status = append_audit_record(log->get(), policy->audit_log, record); !status) return status.error();
  if (!refused) return exit_ok;
  return report_refusal(plan);
}

int report_refusal(const Plan& plan) {
  std::fprintf(stderr, "graft: %s\n", one_line(refusal_line(plan)).c_str());
  return exit_refused;
}

}  // namespace graft::commands
