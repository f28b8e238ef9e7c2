// SPDX-License-Identifier: Apache-2.0
#include "verify/verify_plan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "watchdog/plugin_crash_handlers.hpp"
#include "watchdog/running_note.hpp"
#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

// The fds a verify context borrows, kept open for the whole run.
struct VerifyFds {
  UniqueFd root;         // the container's root, from /proc/<pid>/root
  UniqueFd source_root;  // the driver root, when it is not "/"
};

// The container's root as its init sees it, then the process confirmed:
// a /proc/<pid>/root of a reused pid is another process's root.
Status open_container_root(const ContainerProcess& process, ApplyTarget& target, VerifyFds& fds) {
  target.rootfs = "/proc/" + std::to_string(process.pid()) + "/root";
  auto root = process.confirmed("its root", [&]() -> Result<UniqueFd> {
    UniqueFd fd(::open(target.rootfs.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) return make_sys_error(errno, "{}", target.rootfs);
    return fd;
  });
  if (!root) return root.error();
  struct stat st {};
  if (::fstat(root->get(), &st) != 0)
    return make_sys_error(errno, "{}", target.rootfs);
  fds.root = std::move(*root);
  target.rootfs_fd = fds.root.get();
  target.uid = st.st_uid;
  target.gid = st.st_gid;
  return ok_status();
}

Status open_verify_source_root(const std::string& source_root, ApplyTarget& target, VerifyFds& fds) {
  if (source_root.empty() || normalize_path(source_root) == "/") return ok_status();
  fds.source_root = UniqueFd(::open(source_root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fds.source_root.valid())
    return make_sys_error(errno, "driver root {}", source_root);
  target.source_root_fd = fds.source_root.get();
  target.source_root = normalize_path(source_root);
  return ok_status();
}

// One action's plugin findings, added to the report.
void add_findings(const Action& action, const std::vector<PluginFinding>& findings,
                  VerifyReport& report) {
  bool differs = false, unchecked = false;
  for (const PluginFinding& finding : findings) {
    if (finding.kind == FindingKind::not_checked) {
      unchecked = true;
      continue;
    }
    differs = true;
    report.drifts.push_back({action.kind, action.target, finding.kind == FindingKind::unknown,
                             finding.expected, finding.found, action.provenance});
  }
  if (!differs && unchecked) ++report.not_checked[action.kind];
  if (!differs && !unchecked) ++report.held;
}

Status verify_action(const Action& action, std::uint32_t index, PluginSet& plugins,
                     const ApplyTarget& target, VerifyReport& report) {
  if (action.kind == ActionKind::env) {  // the runtime's config sets it; nothing to look at
    ++report.not_checked[action.kind];
    return ok_status();
  }
  LoadedPlugin* plugin = plugins.find(action.kind, action.plugin);
  if (plugin == nullptr)
    return make_error("plan action {} ({} {}): plugin '{}' is not loaded", index + 1,
                      to_string(action.kind), action.target, action.plugin);
  if (!plugin->verifies()) {
    ++report.not_checked[action.kind];
    return ok_status();
  }
  auto findings = plugin->verify(action, index, target);
  if (!findings) return findings.error();
  add_findings(action, *findings, report);
  return ok_status();
}

}  // namespace

Result<VerifyReport> verify_plan(const Plan& plan, PluginSet& plugins, const VerifySite& site) {
  ApplyTarget target{.container_id = site.container_id,
                     .pid = site.process.pid(),
                     .pidfd = site.process.pidfd()};
  VerifyFds fds;
  if (auto opened = open_container_root(site.process, target, fds); !opened) return opened.error();
  if (auto opened = open_verify_source_root(site.source_root, target, fds); !opened)
    return opened.error();
  PluginCrashHandlers crash_handlers;  // a crashing plugin is named in one line
  VerifyReport report;
  for (std::size_t i = 0; i < plan.actions.size(); ++i)
    if (auto status = verify_action(plan.actions[i], static_cast<std::uint32_t>(i), plugins, target,
                                    report);
        !status)
      return status.error();
  // What the plugins read under /proc/<pid>/root was this container's only
  // if its init still runs now.
  if (auto alive = confirm_running(site.process.pidfd(), site.process.pid(), "its mounts and rules");
      !alive)
    return alive.error();
  return report;
}

}  // namespace graft
