// SPDX-License-Identifier: Apache-2.0
// PluginSet registry and the plan executability check.
#include "plugin_host/plugin_set.hpp"

#include "watchdog/plugin_crash_handlers.hpp"

namespace graft {

PluginSet::~PluginSet() {
  if (plugins_.empty()) return;
  PluginCrashHandlers crash_handlers;
  by_kind_.clear();
  plugins_.clear();
}

Status PluginSet::add(std::unique_ptr<LoadedPlugin> plugin) {
  for (const auto& loaded : plugins_)
    if (loaded->name() == plugin->name())
      return make_error("plugin {}: name '{}' is already loaded from {}", plugin->path(),
                        plugin->name(), loaded->path());
  for (ActionKind kind : plugin->kinds()) by_kind_[{kind, plugin->name()}] = plugin.get();
  plugins_.push_back(std::move(plugin));
  return ok_status();
}

LoadedPlugin* PluginSet::find(ActionKind kind, const std::string& plugin) const {
  auto it = by_kind_.find({kind, plugin});
  return it == by_kind_.end() ? nullptr : it->second;
}

namespace {

std::string why_missing(const Action& action, const PluginSet& plugins) {
  for (const auto& loaded : plugins.plugins())
    if (loaded->name() == action.plugin)
      return fmt::format("plugin '{}' ({}) does not execute {}", action.plugin, loaded->path(),
                         to_string(action.kind));
  return fmt::format("plugin '{}' is not loaded", action.plugin);
}

}  // namespace

Status check_plan_executable(const Plan& plan, const PluginSet& plugins) {
  const Action* first = nullptr;
  std::size_t first_index = 0, missing = 0;
  for (std::size_t i = 0; i < plan.actions.size(); ++i) {
    const Action& action = plan.actions[i];
    if (plugins.find(action.kind, action.plugin) != nullptr) continue;
    if (missing++ == 0) first = &action, first_index = i;
  }
  if (missing == 0) return ok_status();
  std::string more = missing > 1 ? fmt::format(" (and {} more)", missing - 1) : "";
  return make_error("plan action {} ({} {}): {}{}", first_index + 1, to_string(first->kind),
                    first->target, why_missing(*first, plugins), more);
}

}  // namespace graft
