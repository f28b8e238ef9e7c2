// SPDX-License-Identifier: Apache-2.0
// Applying a Plan: every action goes to the plugin it names, in plan order,
// in three phases (plugin.h): prepare all in our own mount namespace, enter
// the container's, apply all inside root.path, then finish each plugin. The
// first failure stops everything and is returned. Under a hook the runtime
// then refuses to start the container, so a half-applied plan never runs;
// `graft apply` on a running container reports what stayed (ApplyProgress,
// apply_progress.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "apply/apply_progress.hpp"
#include "apply/container_process.hpp"
#include "graft/base/error.hpp"
#include "plan/plan.hpp"
#include "plugin_host/plugin_set.hpp"

namespace graft {

struct ApplyTimes {
  double load_ms = 0;     // loading and initialising plugins
  double prepare_ms = 0;
  double enter_ms = 0;    // setns and opening the root
  double apply_ms = 0;
  double finish_ms = 0;
};

struct ApplyReport {
  std::size_t actions = 0;  // actions applied
  ApplyTimes times;
  std::vector<std::string> warnings;  // the plugins' warnings, for the audit record
};

struct ApplySite {
  std::string container_id;
  // The container's init, held since graft first heard its pid; null: stay
  // in our own mount namespace (tests).
  const ContainerProcess* process = nullptr;
  std::string rootfs;      // root.path as seen inside the container's mount namespace
  std::string source_root = "/";  // [host] driver_root: sources under it open inside it
};

// Ok when a hook can carry out the plan: every action has a loaded plugin,
// and none needs the process's environment, which the runtime already built.
Status check_plan_applicable(const Plan& plan, const PluginSet& plugins);

// `progress`, when given, says how far the plan got, also when it failed.
Result<ApplyReport> apply_plan(const Plan& plan, PluginSet& plugins, const ApplySite& site,
                               ApplyProgress* progress = nullptr);

}  // namespace graft
