// The mark of a spec graft wrote (spec_origin.hpp).
#include "cdi/spec_origin.hpp"

#include <algorithm>

#include "cdi/cdi_yaml.hpp"

namespace graft::cdi {
namespace {

using nlohmann::json;

bool runs_graft_cdi_hook(const json& hook) {
  if (!hook.is_object() || !hook.contains("args") || !hook["args"].is_array()) return false;
  const json& args = hook["args"];
  return !args.empty() && args[0] == "graft" &&
         std::any_of(args.begin(), args.end(), [](const json& arg) { return arg == "cdi-hook"; });
}

bool edits_run_graft_cdi_hook(const json& holder) {
  if (!holder.is_object() || !holder.contains("containerEdits")) return false;
  const json& edits = holder["containerEdits"];
  if (!edits.is_object() || !edits.contains("hooks") || !edits["hooks"].is_array()) return false;
  return std::any_of(edits["hooks"].begin(), edits["hooks"].end(), runs_graft_cdi_hook);
}

}  // namespace

bool written_by_graft(const json& document) {
  if (edits_run_graft_cdi_hook(document)) return true;
  if (!document.is_object() || !document.contains("devices") || !document["devices"].is_array()) return false;
  const json& devices = document["devices"];
  return std::any_of(devices.begin(), devices.end(), edits_run_graft_cdi_hook);
}

Result<json> parse_spec_text(const std::string& text) {
  auto document = json::parse(text, nullptr, false);
  if (!document.is_discarded()) return document;
  auto yaml = parse_yaml(text);
  if (!yaml) return yaml.error().context("neither JSON nor YAML");
  return std::move(*yaml);
}

}  // namespace graft::cdi
