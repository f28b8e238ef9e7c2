// SPDX-License-Identifier: Apache-2.0
#include "config_edit.hpp"

#include <algorithm>

namespace graft::runtime {
namespace {

bool names_graft(const std::string& path) { return path == "graft" || path.ends_with("/graft"); }

bool is_graft_command(const ordered_json& arg) {
  return arg.is_string() && (arg.get<std::string>() == "hook" || arg.get<std::string>() == "cdi-hook");
}

}  // namespace

HookCommand graft_hook_command(const GraftHook& hook) {
  return {hook.graft_path, {"graft", "--policy", hook.policy_path, "hook", "createRuntime"}, {kHookPath}};
}

ordered_json hook_entry(const HookCommand& hook) {
  return ordered_json{{"path", hook.path}, {"args", hook.args}, {"env", hook.env}};
}

bool is_graft_hook(const ordered_json& entry) {
  if (!entry.is_object()) return false;
  auto path = entry.find("path");
  auto args = entry.find("args");
  if (path == entry.end() || !path->is_string() || !names_graft(path->get<std::string>())) return false;
  if (args == entry.end() || !args->is_array() || args->empty()) return false;
  return std::any_of(std::next(args->begin()), args->end(), is_graft_command);
}

Result<bool> has_graft_hook(const ordered_json& config) {
  if (!config.is_object()) return make_error("config.json: expected a JSON object");
  auto hooks = config.find("hooks");
  if (hooks == config.end() || hooks->is_null()) return false;
  if (!hooks->is_object()) return make_error("config.json: hooks: expected an object");
  for (const auto& [stage, entries] : hooks->items()) {
    if (entries.is_null()) continue;
    if (!entries.is_array()) return make_error("config.json: hooks.{}: expected an array", stage);
    if (std::any_of(entries.begin(), entries.end(), is_graft_hook)) return true;
  }
  return false;
}

Status append_create_runtime_hook(ordered_json& config, const HookCommand& hook) {
  ordered_json& hooks = config["hooks"];
  if (hooks.is_null()) hooks = ordered_json::object();
  if (!hooks.is_object()) return make_error("config.json: hooks: expected an object");
  ordered_json& create_runtime = hooks["createRuntime"];
  if (create_runtime.is_null()) create_runtime = ordered_json::array();
  if (!create_runtime.is_array()) return make_error("config.json: hooks.createRuntime: expected an array");
  create_runtime.push_back(hook_entry(hook));
  return ok_status();
}

Result<bool> add_graft_hook(ordered_json& config, const GraftHook& hook) {
  auto present = has_graft_hook(config);
  if (!present) return present.error();
  if (*present) return false;
  if (auto status = append_create_runtime_hook(config, graft_hook_command(hook)); !status)
    return status.error();
  return true;
}

}  // namespace graft::runtime
