// SPDX-License-Identifier: Apache-2.0
// A runtime shim's bundle evaluated before `create`
// (graft/engine/bundle_evaluation.hpp): the request read as `graft plan
// --bundle` reads it, one evaluation, a refusal's audit record, and in
// declarative mode the plan split into native edits and graft cdi-hook, and
// its `planned` record.
#include "graft/engine/bundle_evaluation.hpp"

#include "audit/audit_log.hpp"
#include "container_edits/container_edits.hpp"
#include "container_edits/hook_arguments.hpp"
#include "evaluation/container_plan.hpp"
#include "render/render.hpp"
#include "request/request.hpp"
#include "watchdog/running_note.hpp"

namespace graft {
namespace {

Result<Request> bundle_request(const BundleSpec& spec) {
  auto request = parse_bundle_config(spec.config_text, spec.bundle);
  if (!request) return request.error().context(spec.config_path);
  request->container_id = spec.container_id;
  request->layout = read_image_layout(request->rootfs);
  return request;
}

Status record(const Policy& policy, const Request& request, const ContainerPlan& evaluation,
              ContainerOutcome outcome) {
  AuditRecord record{request, &evaluation, outcome, "", policy.audit_env};
  return append_audit_record(policy.audit_log, record);
}

// Declarative mode: the native edits, and graft cdi-hook for the rest.
Status split_for_spec(const Plan& plan, const GraftHook& hook, BundleEvaluation& into) {
  ContainerEdits edits = split_plan(plan);
  auto actions = cdi_hook_actions_of(edits.residual);
  if (!actions) return actions.error();
  if (!actions->empty()) into.residual_hook = cdi_hook_command(hook.graft_path, hook.policy_path, *actions);
  into.edits = std::move(edits);
  return ok_status();
}

}  // namespace

Result<BundleEvaluation> evaluate_bundle(const SitePolicy& site, const BundleSpec& spec,
                                         const GraftHook& hook) {
  RunningNote note("container " + spec.container_id);
  const Policy& policy = site.model();
  auto request = bundle_request(spec);
  if (!request) return request.error();
  auto evaluation = plan_container(*request, policy);
  if (!evaluation) return evaluation.error();
  const Plan& plan = evaluation->plan;
  BundleEvaluation result;
  if (plan.intent.refusal) {
    if (auto status = record(policy, *request, *evaluation, ContainerOutcome::refused); !status)
      return status.error();
    result.verdict = BundleVerdict::refused;
    result.refusal = refusal_line(plan);
    return result;
  }
  if (!plan.inject) return result;
  result.verdict = BundleVerdict::inject;
  if (!site.declarative()) return result;  // the hook writes the record of what it applies
  if (auto status = split_for_spec(plan, hook, result); !status) return status.error();
  // The runtime carries out what config.json now says; graft applies only
  // the residual hook's share (and records that): without this record a
  // plan config.json holds whole would leave no trace in the log.
  if (auto status = record(policy, *request, *evaluation, ContainerOutcome::planned); !status)
    return status.error();
  return result;
}

}  // namespace graft
