// SPDX-License-Identifier: Apache-2.0
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

bool any_hook(const json&) { return true; }

// Whether a hook of the spec's (spec-level or a device's) passes `test`.
bool some_hook(const json& document, bool (*test)(const json&)) {
  auto edits_pass = [test](const json& holder) {
    if (!holder.is_object() || !holder.contains("containerEdits")) return false;
    const json& edits = holder["containerEdits"];
    if (!edits.is_object() || !edits.contains("hooks") || !edits["hooks"].is_array()) return false;
    return std::any_of(edits["hooks"].begin(), edits["hooks"].end(), test);
  };
  if (edits_pass(document)) return true;
  if (!document.is_object() || !document.contains("devices") || !document["devices"].is_array()) return false;
  return std::any_of(document["devices"].begin(), document["devices"].end(), edits_pass);
}

}  // namespace

bool written_by_graft(const json& document) { return some_hook(document, runs_graft_cdi_hook); }

bool runs_any_hook(const json& document) { return some_hook(document, any_hook); }

Result<json> parse_spec_text(const std::string& text) {
  auto document = json::parse(text, nullptr, false);
  if (!document.is_discarded()) return document;
  auto yaml = parse_yaml(text);
  if (!yaml) return yaml.error().context("neither JSON nor YAML");
  return std::move(*yaml);
}

}  // namespace graft::cdi
