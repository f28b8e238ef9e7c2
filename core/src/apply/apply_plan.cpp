// SPDX-License-Identifier: Apache-2.0
#include "apply/apply_plan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "apply/mount_namespace.hpp"
#include "apply/open_file_limit.hpp"
#include "watchdog/plugin_crash_handlers.hpp"
#include "watchdog/running_note.hpp"
#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The plugin each action goes to, resolved once; check_plan_applicable has
// already proved every lookup succeeds.
std::vector<LoadedPlugin*> executors(const Plan& plan, const PluginSet& plugins) {
  std::vector<LoadedPlugin*> out;
  out.reserve(plan.actions.size());
  for (const Action& action : plan.actions) out.push_back(plugins.find(action.kind, action.plugin));
  return out;
}

Status prepare_all(const Plan& plan, const std::vector<LoadedPlugin*>& by, const ApplyTarget& target) {
  for (std::size_t i = 0; i < plan.actions.size(); ++i) {
    if (auto status = by[i]->prepare(plan.actions[i], static_cast<std::uint32_t>(i), target); !status)
      return status;
  }
  return ok_status();
}

// The driver root, for plugins to open the plan's sources inside it
// (graft_apply_context.source_root_fd); none when it is "/".
Result<UniqueFd> open_source_root(const ApplySite& site, ApplyTarget& target) {
  if (site.source_root.empty() || normalize_path(site.source_root) == "/") return UniqueFd();
  UniqueFd fd(::open(site.source_root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0)
    return make_sys_error(errno, "driver root {}", site.source_root);
  target.source_root_fd = fd.get();
  target.source_root = normalize_path(site.source_root);
  return fd;
}

// Opens root.path after entering the container's namespace; the rootfs owner
// becomes the owner of directories plugins create in it.
Status open_root(const ApplySite& site, ApplyTarget& target, UniqueFd& root_fd) {
  root_fd = UniqueFd(::open(site.rootfs.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd.valid())
    return make_sys_error(errno, "container root {}", site.rootfs);
  struct stat st {};
  if (::fstat(root_fd.get(), &st) != 0)
    return make_sys_error(errno, "container root {}", site.rootfs);
  target.rootfs_fd = root_fd.get();
  target.uid = st.st_uid;
  target.gid = st.st_gid;
  return ok_status();
}

// A namespace whose process hangs, or a root on a stuck filesystem, is named
// should the deadline pass here.
Status enter_container(const ApplySite& site, MountNamespaceVisit& visit, ApplyTarget& target,
                       UniqueFd& root_fd) {
  RunningNote note("entering the container's mount namespace");
  if (site.process != nullptr)
    if (auto entered = visit.enter(*site.process); !entered) return entered;
  return open_root(site, target, root_fd);
}

// Counts in `progress` each action that was applied, for the caller to say
// what stayed should a later one fail.
Status apply_all(const Plan& plan, const std::vector<LoadedPlugin*>& by, const ApplyTarget& target,
                 ApplyProgress& progress) {
  for (std::size_t i = 0; i < plan.actions.size(); ++i) {
    if (auto status = by[i]->apply(plan.actions[i], static_cast<std::uint32_t>(i), target); !status)
      return status;
    progress.applied = i + 1;
  }
  return ok_status();
}

Status finish_all(PluginSet& plugins, const ApplyTarget& target) {
  for (const auto& plugin : plugins.plugins()) {
    if (auto status = plugin->finish(target); !status) return status;
  }
  return ok_status();
}

}  // namespace

Status check_plan_applicable(const Plan& plan, const PluginSet& plugins) {
  for (const Action& action : plan.actions)
    if (action.kind == ActionKind::env)
      return make_error(
          "plan sets environment variable {} ({}), which a hook cannot do: the runtime has "
          "already built the container's process; set it in the image or the runtime config",
          action.target, action.provenance.origin.empty() ? "rule" : action.provenance.origin.brief());
  return check_plan_executable(plan, plugins);
}

Result<ApplyReport> apply_plan(const Plan& plan, PluginSet& plugins, const ApplySite& site,
                               ApplyProgress* progress_out) {
  ApplyProgress unused;
  ApplyProgress& progress = progress_out != nullptr ? *progress_out : unused;
  progress = ApplyProgress{};
  if (auto status = check_plan_applicable(plan, plugins); !status) return status.error();
  ApplyReport report;
  ApplyTarget target{.container_id = site.container_id,
                     .rootfs = site.rootfs,
                     .pid = site.process != nullptr ? site.process->pid() : 0,
                     .pidfd = site.process != nullptr ? site.process->pidfd() : -1};
  auto by = executors(plan, plugins);
  // A crashing plugin is named in one line (LoadedPlugin notes each call);
  // installed once here rather than once per call.
  PluginCrashHandlers crash_handlers;
  raise_open_file_limit();  // prepare holds each host object open until applied

  auto start = Clock::now();
  auto source_root = open_source_root(site, target);
  if (!source_root) return source_root.error();
  if (auto status = prepare_all(plan, by, target); !status)
    return name_open_file_limit(status.error());
  report.times.prepare_ms = ms_since(start);

  start = Clock::now();
  MountNamespaceVisit visit;  // returns home on every path out of here
  UniqueFd root_fd;
  auto opened = enter_container(site, visit, target, root_fd);
  if (!opened) return opened.error();
  report.times.enter_ms = ms_since(start);

  start = Clock::now();
  progress.phase = ApplyPhase::applying;
  if (auto status = apply_all(plan, by, target, progress); !status) return status.error();
  report.times.apply_ms = ms_since(start);

  start = Clock::now();
  progress.phase = ApplyPhase::finishing;
  if (auto status = finish_all(plugins, target); !status) return status.error();
  progress.phase = ApplyPhase::done;
  report.times.finish_ms = ms_since(start);
  report.actions = plan.actions.size();
  for (const auto& plugin : plugins.plugins())
    for (auto& warning : plugin->take_warnings()) report.warnings.push_back(std::move(warning));
  if (auto left = visit.leave(); !left) return left.error();
  return report;
}

}  // namespace graft
