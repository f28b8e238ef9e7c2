// SPDX-License-Identifier: Apache-2.0
// The loaded plugins of one run, and the lookup from (action kind, plugin
// name) to the plugin that executes it. check_plan_executable proves before
// anything is applied that every action of a plan has an executor, so a plan
// never fails half-way for want of a plugin.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "plugin_host/loaded_plugin.hpp"

namespace graft {

class PluginSet {
 public:
  PluginSet() = default;
  PluginSet(PluginSet&&) = default;
  PluginSet& operator=(PluginSet&&) = default;
  // Destroys the plugins under one installation of the crash handlers
  // (watchdog/plugin_crash_handlers.hpp) rather than one per plugin.
  ~PluginSet();

  // Fails on a second plugin of the same name.
  Status add(std::unique_ptr<LoadedPlugin> plugin);

  // The plugin named `plugin` if it is loaded and claims `kind`, else null.
  LoadedPlugin* find(ActionKind kind, const std::string& plugin) const;
  const std::vector<std::unique_ptr<LoadedPlugin>>& plugins() const { return plugins_; }

 private:
  std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
  std::map<std::pair<ActionKind, std::string>, LoadedPlugin*> by_kind_;
};

// Ok when every action's plugin is loaded and claims the action's kind;
// otherwise one line naming the first such action and how many there are.
Status check_plan_executable(const Plan& plan, const PluginSet& plugins);

}  // namespace graft
