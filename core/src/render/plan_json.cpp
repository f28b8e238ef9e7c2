// SPDX-License-Identifier: Apache-2.0
// The JSON plan: every action with its plugin, paths, options and provenance,
// plus the decisions that led to it. Shape documented in docs/plan-schema.json.
#include "render/render.hpp"

namespace graft {
namespace {

using json = nlohmann::json;

json reason_json(const Reason& reason) {
  json entry = {{"reason", reason.text}, {"origin", reason.origin.brief()}};
  if (!reason.rule.empty()) entry["rule"] = reason.rule;
  return entry;
}

json named_json(const std::vector<NamedGrant>& grants) {
  json out = json::array();
  for (const auto& grant : grants) {
    json entry = reason_json(grant.reason);
    entry["name"] = grant.name;
    out.push_back(entry);
  }
  return out;
}

json nodes_json(const std::vector<NodeGrant>& nodes) {
  json out = json::array();
  for (const auto& node : nodes) {
    json entry = reason_json(node.reason);
    entry["class"] = node.device_class;
    entry["number"] = node.number ? json(*node.number) : json(nullptr);
    out.push_back(entry);
  }
  return out;
}

json device_json(const GrantedDevice& device) {
  json entry = reason_json(device.reason);
  entry["gpu"] = device.index;
  entry["partition"] = device.partition ? json(*device.partition) : json(nullptr);
  entry["minor"] = device.minor;
  entry["uuid"] = device.uuid;
  entry["bus_id"] = device.bus_id;
  return entry;
}

json action_json(const Action& action) {
  json entry = {{"kind", to_string(action.kind)},
                {"plugin", action.plugin},
                {"source", action.source},
                {"target", action.target},
                {"options", action.options},
                {"provenance",
                 {{"capability", action.provenance.capability},
                  {"reason", action.provenance.reason},
                  {"origin", action.provenance.origin.brief()}}}};
  if (action.kind == ActionKind::device_node || action.kind == ActionKind::cgroup_allow)
    entry["device"] = {{"type", std::string(1, action.device_type)},
                       {"major", action.major},
                       {"minor", action.minor}};
  if (!action.access.empty()) entry["access"] = action.access;
  if (!action.content.empty()) entry["content"] = action.content;
  if (!action.paths.empty()) entry["paths"] = action.paths;
  if (!action.rewrites.empty()) entry["rewrites"] = action.rewrites;
  return entry;
}

}  // namespace

json render_decisions_json(const Plan& plan) {
  const Intent& intent = plan.intent;
  json denied = json::array();
  for (const auto& denial : intent.denials) {
    json entry = reason_json(denial.reason);
    entry["what"] = denial.what;
    denied.push_back(entry);
  }
  json devices = json::array();
  for (const auto& device : plan.devices) devices.push_back(device_json(device));
  json env = json::array();
  for (const auto& grant : intent.env) {
    json entry = reason_json(grant.reason);
    entry["name"] = grant.name;
    entry["value"] = grant.value;
    env.push_back(entry);
  }
  json files = json::array();
  for (const auto& file : intent.files) {
    json entry = reason_json(file.reason);
    entry["path"] = file.path;
    files.push_back(entry);
  }
  json granted = {{"devices", devices},
                  {"capabilities", named_json(intent.capabilities)},
                  {"extras", named_json(intent.extras)},
                  {"env", env},
                  {"files", files}};
  // Only when some rule granted nodes, so plans without them keep their shape.
  if (!intent.nodes.empty()) granted["nodes"] = nodes_json(intent.nodes);
  return {{"notes", intent.request_notes},
          {"granted", granted},
          {"denied", denied},
          {"refusal", intent.refusal ? reason_json(*intent.refusal) : json(nullptr)}};
}

json render_plan_json(const Plan& plan) {
  json actions = json::array();
  for (const auto& action : plan.actions) actions.push_back(action_json(action));
  return {{"schema", plan_schema_id},
          {"container", {{"id", plan.container_id}, {"bundle", plan.bundle}}},
          {"driver_version", plan.driver_version},
          {"inject", plan.inject},
          {"lib_dir", plan.lib_dir},
          {"lib32_dir", plan.lib32_dir},
          {"lib_dir_reason", plan.lib_dir_reason},
          {"lib32_dir_reason", plan.lib32_dir_reason},
          {"decisions", render_decisions_json(plan)},
          {"actions", actions},
          {"warnings", plan.warnings}};
}

}  // namespace graft
