#include "prepare_bundle.hpp"

#include "audit/audit_log.hpp"
#include "bundle_config.hpp"
#include "engine/container_plan.hpp"
#include "fault/running_note.hpp"
#include "render/render.hpp"
#include "request/request.hpp"

namespace graft::runtime {
namespace {

Result<Request> bundle_request(const std::string& text, const std::string& bundle,
                               const std::string& container_id) {
  auto request = parse_bundle_config(text, bundle);
  if (!request) return request.error().context(bundle + "/config.json");
  request->container_id = container_id;
  request->layout = read_image_layout(request->rootfs);
  return request;
}

Status record_refusal(const Policy& policy, const Request& request, const ContainerPlan& evaluation) {
  AuditRecord record{request, &evaluation, ContainerOutcome::refused, "", policy.audit_env};
  return append_audit_record(policy.audit_log, record);
}

Status insert_hook(const std::string& text, const std::string& bundle, const GraftHook& hook) {
  auto config = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) return make_error("{}/config.json: not valid JSON", bundle);
  auto added = add_graft_hook(config, hook);
  if (!added) return added.error().context(bundle);
  if (!*added) return ok_status();  // graft's hook is there already
  return replace_bundle_config(bundle, config.dump());
}

}  // namespace

Result<PreparedBundle> prepare_bundle(const Policy& policy, const std::string& bundle,
                                      const std::string& container_id, const GraftHook& hook) {
  RunningNote note("container " + container_id);
  auto text = read_bundle_config(bundle);
  if (!text) return text.error();
  auto request = bundle_request(*text, bundle, container_id);
  if (!request) return request.error();
  auto evaluation = plan_container(*request, policy);
  if (!evaluation) return evaluation.error();
  const Plan& plan = evaluation->plan;
  if (plan.intent.refusal) {
    if (auto status = record_refusal(policy, *request, *evaluation); !status) return status.error();
    return PreparedBundle{BundleOutcome::refused, refusal_line(plan)};
  }
  if (!plan.inject) return PreparedBundle{};
  if (auto status = insert_hook(*text, bundle, hook); !status) return status.error();
  return PreparedBundle{BundleOutcome::edited, ""};
}

}  // namespace graft::runtime
