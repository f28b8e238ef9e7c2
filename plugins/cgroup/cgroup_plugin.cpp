// SPDX-License-Identifier: Apache-2.0
// The cgroup plugin: cgroup_allow actions into the container's device cgroup.
//
// prepare (host mount namespace) finds the container's cgroup from its pid
// and opens it (plus, on cgroup v2, the bpf filesystem); apply writes each
// rule to devices.allow (v1) or collects it (v2); finish installs the
// collected v2 rules at once (device_filter_v2.cpp). When systemd holds the
// container in a unit (a systemd cgroup driver), finish also adds the rules
// to the unit's DeviceAllow=, so a daemon-reload keeps them
// (systemd_scope.hpp), unless the unit allows every device already (a
// privileged container's; unit_device_policy.hpp); prepare connects, in the
// host's namespace. Config
// keys: "cgroup_root" (default /sys/fs/cgroup: a cgroup2 mount there means
// v2), "bpffs" (default /sys/fs/bpf: where v2 keeps the runtime's program),
// "mount_bpffs" ("auto", the default: mount one there when none is, as
// systemd does at boot; "off": fail instead; bpf_filesystem.hpp) and "systemd" ("auto", the default, or "off": never tell systemd, and a
// daemon-reload then takes the rules away from a container in a unit).
//
// verify (`graft verify`, host namespace, nothing changed) reads what the
// container's cgroup allows now (device_access.hpp) once per container and
// asks it each rule: every access letter together, then, when that is
// refused, each letter alone to say what is left.
#include <cstddef>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bpf_filesystem.hpp"
#include "container_cgroup.hpp"
#include "container_process.hpp"
#include "device_access.hpp"
#include "device_filter_v2.hpp"
#include "device_rule.hpp"
#include "devices_v1.hpp"
#include "graft/base/unique_fd.hpp"
#include "plugin_glue.hpp"
#include "systemd_scope.hpp"

namespace graft::cgroup {

using plugin::pid_of;

namespace {

// One rule asked of what the cgroup allows now; a finding when it falls short.
void check_rule(const DeviceAccess& access, const DeviceRule& rule,
                const plugin::Findings& findings) {
  const std::string expected = rule.access + " allowed";
  Verdict whole = access.allows(question_of(rule));
  if (whole.kind == Verdict::Kind::allow) return;
  if (whole.kind == Verdict::Kind::unknown) return findings.unknown(expected, whole.why);
  std::uint32_t allowed = 0;
  for (std::uint32_t bit = 1; bit <= rule.access_bits; bit <<= 1)
    if ((rule.access_bits & bit) != 0 &&
        access.allows(question_of(rule, bit)).kind == Verdict::Kind::allow)
      allowed |= bit;
  findings.drift(expected, allowed == 0                  ? std::string("nothing allowed")
                           : allowed == rule.access_bits ? "each of " + access_letters(allowed) +
                                                               " alone, not together"
                                                         : "only " + access_letters(allowed) +
                                                               " allowed");
}

}  // namespace

class CgroupPlugin {
 public:
  static Result<std::unique_ptr<CgroupPlugin>> create(const plugin::Host& host,
                                                      const nlohmann::json& config) {
    if (auto keys = plugin::check_config_keys(config, {"cgroup_root", "bpffs", "mount_bpffs", "systemd"});
        !keys)
      return keys.error().context("cgroup plugin");
    auto created = std::unique_ptr<CgroupPlugin>(new CgroupPlugin(host));
    for (const auto& [key, value] : config.items()) {
      if (key == "systemd") {
        if (value != "auto" && value != "off")
          return make_error("cgroup plugin: config 'systemd' must be \"auto\" or \"off\"");
        created->tell_systemd_ = value == "auto";
        continue;
      }
      if (key == "mount_bpffs") {
        if (value != "auto" && value != "off")
          return make_error("cgroup plugin: config 'mount_bpffs' must be \"auto\" or \"off\"");
        created->mount_bpffs_ = value == "auto";
        continue;
      }
      std::string* setting = key == "cgroup_root" ? &created->cgroup_root_ : &created->bpffs_;
      if (!value.is_string() || value.get<std::string>().empty() ||
          value.get<std::string>()[0] != '/')
        return make_error("cgroup plugin: config '{}' must be an absolute path", key);
      *setting = value.get<std::string>();
    }
    return created;
  }

  Status prepare(const graft_action& action, const graft_apply_context& context) {
    auto rule = rule_of(action);
    if (!rule.ok()) return rule.error();
    const int pid = pid_of(context);
    if (pid <= 0) return make_error("cgroup rule '{}': no container pid", rule->text());
    if (containers_.contains(pid)) return ok_status();

    auto cgroup = find_container_cgroup(pid, plugin::pidfd_of(context), cgroup_root_);
    if (!cgroup.ok()) return cgroup.error();
    Container container{.cgroup = std::move(*cgroup), .bpffs = {}, .bpffs_error = {}, .rules = {}, .unit = {},
                        .systemd = {}};
    if (container.cgroup.mode == CgroupMode::v2) open_bpffs(container);
    if (auto found_unit = find_unit(container, pid); !found_unit.ok()) return found_unit;
    host_.debug(fmt::format("pid {}: device cgroup {} (cgroup {})", pid, container.cgroup.path,
                            container.cgroup.mode == CgroupMode::v2 ? "v2" : "v1"));
    containers_.emplace(pid, std::move(container));
    return ok_status();
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    auto rule = rule_of(action);
    if (!rule.ok()) return rule.error();
    auto found = containers_.find(pid_of(context));
    if (found == containers_.end())
      return make_error("cgroup rule '{}': the container's cgroup was not prepared (pid {})",
                        rule->text(), pid_of(context));
    Container& container = found->second;
    if (container.cgroup.mode == CgroupMode::v1)
      if (auto allowed = allow_v1(container.cgroup.dir.get(), container.cgroup.path, *rule); !allowed.ok())
        return allowed;
    container.rules.push_back(*rule);
    return ok_status();
  }

  Status verify(const graft_action& action, const graft_apply_context& context,
                const plugin::Findings& findings) {
    auto rule = rule_of(action);
    if (!rule.ok()) return rule.error();
    auto access = access_now(context);
    if (!access) {
      findings.unknown(rule->access + " allowed", access.error().message);
      return ok_status();
    }
    check_rule(**access, *rule, findings);
    return ok_status();
  }

  Status finish(const graft_apply_context& context) {
    auto found = containers_.find(pid_of(context));
    if (found == containers_.end()) return ok_status();  // nothing was prepared for it
    Container container = std::move(found->second);
    containers_.erase(found);
    if (container.rules.empty()) return ok_status();
    if (container.cgroup.mode == CgroupMode::v2) {
      FilterTarget target{.cgroup_fd = container.cgroup.dir.get(),
                          .cgroup_path = container.cgroup.path,
                          .bpffs_fd = container.bpffs.get(),
                          .bpffs_path = bpffs_,
                          .bpffs_error = container.bpffs_error};
      auto installed = install_device_rules(target, container.rules,
                                            [this](const std::string& line) { host_.debug(line); });
      if (!installed.ok()) return installed.error();
    }
    if (!container.unit) return ok_status();
    if (auto told = tell_systemd(container); !told.ok())
      return told.error().context("the device rules would not survive a systemd daemon-reload");
    return ok_status();
  }

 private:
  struct Container {
    ContainerCgroup cgroup;
    UniqueFd bpffs;           // v2: the bpf filesystem, opened in the host namespace
    std::string bpffs_error;    // why bpffs is not open
    std::vector<DeviceRule> rules;  // what apply allowed (v2: collected for finish)
    std::optional<std::string> unit;  // the systemd unit holding the container, if any
    std::optional<SystemdManager> systemd;  // connected in prepare when there is a unit
  };

  explicit CgroupPlugin(const plugin::Host& host) : host_(host) {}

  // The systemd unit that holds the container, connected to in the host's
  // namespace. None without systemd, when the cgroup names no unit, or when
  // systemd holds the pid elsewhere (a cgroupfs driver's look-alike path).
  Status find_unit(Container& container, int pid) const {
    auto unit = unit_of_cgroup(container.cgroup.path);
    if (!unit || !systemd_booted()) return ok_status();
    if (!tell_systemd_) {
      host_.log(GRAFT_LOG_WARNING, fmt::format("pid {} is in {} and [plugins.config.cgroup] systemd = \"off\": a "
                                               "systemd daemon-reload will take these device rules away",
                                               pid, *unit));
      return ok_status();
    }
    auto manager = SystemdManager::connect();
    if (!manager.ok())
      return manager.error().context(fmt::format("container pid {} is in {}", pid, *unit));
    auto holds = manager->holds(*unit, pid);
    if (!holds.ok()) return holds.error();
    if (!*holds) {
      host_.debug(fmt::format("pid {}: systemd does not hold it in {}; its rules stay in the cgroup only", pid, *unit));
      return ok_status();
    }
    container.unit = std::move(unit);
    container.systemd.emplace(std::move(*manager));
    return ok_status();
  }

  // Adds the container's rules to its unit's DeviceAllow=, unless the unit
  // allows every device (unit_device_policy.hpp): one entry there would
  // close it, and the container would lose every other device at once.
  Status tell_systemd(const Container& container) const {
    const std::string& unit = *container.unit;
    auto policy = container.systemd->device_policy(unit);
    if (!policy.ok()) return policy.error();
    if (allows_every_device(*policy)) {
      host_.debug(fmt::format("{} allows every device (DevicePolicy=auto, no DeviceAllow=): nothing added to it, "
                              "and a daemon-reload leaves the device rules open", unit));
      return ok_status();
    }
    if (auto told = container.systemd->allow_devices(unit, container.rules); !told.ok()) return told;
    host_.debug(fmt::format("{} device rule(s) added to {}'s DeviceAllow= (DevicePolicy={}, {} entries before)",
                            container.rules.size(), unit, policy->policy, policy->allow_entries));
    return ok_status();
  }

  // What the container's cgroup allows now, read once per verify run.
  Result<const DeviceAccess*> access_now(const graft_apply_context& context) {
    const int pid = pid_of(context);
    if (pid <= 0) return make_error("no container pid");
    auto found = verified_.find(pid);
    if (found == verified_.end()) {
      auto cgroup = find_container_cgroup(pid, plugin::pidfd_of(context), cgroup_root_);
      auto access = cgroup ? DeviceAccess::read(*cgroup) : Result<DeviceAccess>(cgroup.error());
      found = verified_.emplace(pid, std::move(access)).first;
    }
    if (!found->second) return found->second.error();
    return &*found->second;
  }

  void open_bpffs(Container& container) const {
    auto opened = open_bpf_filesystem(bpffs_, mount_bpffs_, [this](const std::string& line) {
      host_.log(GRAFT_LOG_WARNING, line);
    });
    if (opened.ok())
      container.bpffs = std::move(*opened);
    else
      container.bpffs_error = opened.error().message;
  }

  const plugin::Host& host_;
  std::string cgroup_root_ = "/sys/fs/cgroup";
  std::string bpffs_ = "/sys/fs/bpf";
  bool mount_bpffs_ = true;
  bool tell_systemd_ = true;
  std::map<int, Container> containers_;  // by container pid; all its actions share the fds
  std::map<int, Result<DeviceAccess>> verified_;  // verify: by container pid
};

}  // namespace graft::cgroup

GRAFT_PLUGIN(graft::cgroup::CgroupPlugin, "cgroup", "1.0", GRAFT_ACTION_CGROUP_ALLOW)
