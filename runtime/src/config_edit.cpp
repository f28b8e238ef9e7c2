#include "config_edit.hpp"

#include <algorithm>

namespace graft::runtime {
namespace {

// The PATH runc's own `runc spec` writes.
constexpr const char* kHookPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool names_graft(const std::string& path) {
  return path == "graft" || path.ends_with("/graft");
}

}  // namespace

ordered_json graft_hook_entry(const GraftHook& hook) {
  return ordered_json{
      {"path", hook.graft_path},
      {"args", {"graft", "--policy", hook.policy_path, "hook", "createRuntime"}},
      {"env", {kHookPath}},
  };
}

bool is_graft_hook(const ordered_json& entry) {
  if (!entry.is_object()) return false;
  auto path = entry.find("path");
  auto args = entry.find("args");
  if (path == entry.end() || !path->is_string() || !names_graft(path->get<std::string>())) return false;
  if (args == entry.end() || !args->is_array() || args->empty()) return false;
  return std::any_of(std::next(args->begin()), args->end(),
                     [](const ordered_json& arg) { return arg.is_string() && arg.get<std::string>() == "hook"; });
}

Result<bool> add_graft_hook(ordered_json& config, const GraftHook& hook) {
  if (!config.is_object()) return make_error("config.json: expected a JSON object");
  ordered_json& hooks = config["hooks"];
  if (hooks.is_null()) hooks = ordered_json::object();
  if (!hooks.is_object()) return make_error("config.json: hooks: expected an object");
  for (auto& [stage, entries] : hooks.items()) {
    if (entries.is_null()) continue;
    if (!entries.is_array()) return make_error("config.json: hooks.{}: expected an array", stage);
    if (std::any_of(entries.begin(), entries.end(), is_graft_hook)) return false;
  }
  ordered_json& create_runtime = hooks["createRuntime"];
  if (create_runtime.is_null()) create_runtime = ordered_json::array();
  create_runtime.push_back(graft_hook_entry(hook));
  return true;
}

}  // namespace graft::runtime
