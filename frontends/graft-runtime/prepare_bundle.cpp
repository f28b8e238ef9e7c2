// SPDX-License-Identifier: Apache-2.0
#include "prepare_bundle.hpp"

#include <fmt/format.h>

#include "bundle_config.hpp"
#include "config_plan_edit.hpp"
#include "graft/engine/bundle_evaluation.hpp"

namespace graft::runtime {
namespace {

// Declarative mode: the plan's native edits, and graft cdi-hook for the rest;
// hook mode: graft's hook, which applies the plan when the runtime calls it.
Status edit_config(const std::string& text, const BundleFiles& files, const BundleEvaluation& evaluation,
                   const SitePolicy& policy, const GraftHook& hook) {
  auto config = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) return make_error("{}: not valid JSON", files.config);
  auto changed = policy.declarative() ? write_plan_edits(config, evaluation.edits, evaluation.residual_hook)
                                      : add_graft_hook(config, hook);
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

Result<PreparedBundle> prepare_bundle(const SitePolicy& policy, const BundleFiles& files,
                                      const std::string& container_id, const GraftHook& hook) {
  auto text = read_bundle_config(files);
  if (!text) return text.error();
  BundleSpec spec{files.bundle, files.config, *text, container_id};
  auto evaluation = evaluate_bundle(policy, spec, hook);
  if (!evaluation) return evaluation.error();
  if (evaluation->verdict == BundleVerdict::refused)
    return PreparedBundle{BundleOutcome::refused, evaluation->refusal};
  if (evaluation->verdict == BundleVerdict::untouched) return PreparedBundle{};
  if (!files.config_in_bundle) return config_elsewhere(files, container_id);
  if (auto status = edit_config(*text, files, *evaluation, policy, hook); !status) return status.error();
  return PreparedBundle{BundleOutcome::edited, "", std::move(evaluation->edits.device_nodes)};
}

}  // namespace graft::runtime
