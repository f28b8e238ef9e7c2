// SPDX-License-Identifier: Apache-2.0
#include "prepare_bundle.hpp"

#include <fmt/format.h>

#include "audit/audit_log.hpp"
#include "bundle_config.hpp"
#include "config_plan_edit.hpp"
#include "evaluation/container_plan.hpp"
#include "watchdog/running_note.hpp"
#include "render/render.hpp"
#include "request/request.hpp"

namespace graft::runtime {
namespace {

Result<Request> bundle_request(const std::string& text, const BundleFiles& files,
                               const std::string& container_id) {
  auto request = parse_bundle_config(text, files.bundle);
  if (!request) return request.error().context(files.config);
  request->container_id = container_id;
  request->layout = read_image_layout(request->rootfs);
  return request;
}

Status record_refusal(const Policy& policy, const Request& request, const ContainerPlan& evaluation) {
  AuditRecord record{request, &evaluation, ContainerOutcome::refused, "", policy.audit_env};
  return append_audit_record(policy.audit_log, record);
}

// Hook mode: graft's hook, which applies the plan when the runtime calls it.
Result<bool> add_hook(ordered_json& config, const ContainerEdits&, const GraftHook& hook) {
  return add_graft_hook(config, hook);
}

// Declarative mode: the plan's native edits, and graft cdi-hook for the rest.
Result<bool> add_plan(ordered_json& config, const ContainerEdits& edits, const GraftHook& hook) {
  auto actions = cdi_hook_actions_of(edits.residual);
  if (!actions) return actions.error();
  std::optional<HookCommand> residual_hook;
  if (!actions->empty()) residual_hook = cdi_hook_command(hook.graft_path, hook.policy_path, *actions);
  return write_plan_edits(config, edits, residual_hook);
}

// `edits`: the plan split for declarative mode (empty in hook mode).
Status edit_config(const std::string& text, const BundleFiles& files, const ContainerEdits& edits,
                   const Policy& policy, const GraftHook& hook) {
  auto config = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) return make_error("{}: not valid JSON", files.config);
  auto edit = policy.runtime.mode == RuntimeShim::Mode::declarative ? add_plan : add_hook;
  auto changed = edit(config, edits, hook);
  if (!changed) return changed.error().context(files.bundle);
  if (!*changed) return ok_status();  // made by an earlier create of this bundle
  return replace_bundle_config(files, config.dump());
}

// The hooks graft adds read <bundle>/config.json when the runtime runs
// them (the OCI state names the bundle, not the file): a spec elsewhere
// would be planned here and applied there.
PreparedBundle config_elsewhere(const BundleFiles& files, const std::string& container_id) {
  return {BundleOutcome::config_elsewhere,
          fmt::format("container {} refused: it asks for GPUs and its spec is {}, not {}/config.json, which "
                      "graft's hook reads; give crun no --config for it", container_id, files.config, files.bundle)};
}

}  // namespace

Result<PreparedBundle> prepare_bundle(const Policy& policy, const BundleFiles& files,
                                      const std::string& container_id, const GraftHook& hook) {
  RunningNote note("container " + container_id);
  auto text = read_bundle_config(files);
  if (!text) return text.error();
  auto request = bundle_request(*text, files, container_id);
  if (!request) return request.error();
  auto evaluation = plan_container(*request, policy);
  if (!evaluation) return evaluation.error();
  const Plan& plan = evaluation->plan;
  if (plan.intent.refusal) {
    if (auto status = record_refusal(policy, *request, *evaluation); !status) return status.error();
    return PreparedBundle{BundleOutcome::refused, refusal_line(plan)};
  }
  if (!plan.inject) return PreparedBundle{};
  if (!files.config_in_bundle) return config_elsewhere(files, container_id);
  ContainerEdits edits;
  if (policy.runtime.mode == RuntimeShim::Mode::declarative) edits = split_plan(plan);
  if (auto status = edit_config(*text, files, edits, policy, hook); !status) return status.error();
  return PreparedBundle{BundleOutcome::edited, "", std::move(edits.device_nodes)};
}

}  // namespace graft::runtime
