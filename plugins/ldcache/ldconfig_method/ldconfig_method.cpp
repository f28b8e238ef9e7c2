// SPDX-License-Identifier: Apache-2.0
// The ldconfig method's config, prepare and run (ldconfig_method.hpp).
#include "ldconfig_method.hpp"

#include "confined_run.hpp"
#include "container_process.hpp"
#include "root_path.hpp"
#include "sealed_binary.hpp"

namespace graft::ldcache {
namespace {

constexpr long long kMaxTimeoutMs = 10 * 60 * 1000;

// argv as libnvidia-container builds it: explicit -f/-C because the host's
// ldconfig may have been built with another prefix. Preferred directories
// come first: ldconfig lists what it scans first first among equal sonames.
// Every path is checked plain (the chroot confines them anyway; this keeps a
// bad plan from reaching ldconfig at all).
Status add_arguments(const graft_action& action, const std::vector<std::string>& preferred,
                     std::vector<std::string>& argv) {
  if (auto checked = plugin::check_plain_container_path(action.target, "target"); !checked.ok())
    return checked;
  argv = {"ldconfig", "-f", "/etc/ld.so.conf", "-C", action.target};
  for (const auto& dir : preferred) {
    if (auto checked = plugin::check_plain_container_path(dir, "preferred library directory");
        !checked.ok())
      return checked;
    argv.push_back(dir);
  }
  for (const char* const* path = action.paths; path != nullptr && *path != nullptr; ++path) {
    if (auto checked = plugin::check_plain_container_path(*path, "library directory"); !checked.ok())
      return checked;
    argv.emplace_back(*path);
  }
  return ok_status();
}

}  // namespace

Result<bool> read_ldconfig_key(const std::string& key, const nlohmann::json& value,
                               LdconfigConfig& config) {
  if (key == "ldconfig" || key == "cgroup_root") {
    if (!value.is_string() || value.get<std::string>().empty() ||
        value.get<std::string>().front() != '/')
      return make_error("ldcache config: \"{}\" must be an absolute host path", key);
    (key == "ldconfig" ? config.ldconfig : config.cgroup_root) = value.get<std::string>();
    return true;
  }
  if (key == "timeout_ms") {
    if (!value.is_number_integer() || value.get<long long>() < 1 ||
        value.get<long long>() > kMaxTimeoutMs)
      return make_error("ldcache config: \"timeout_ms\" must be an integer from 1 to {}",
                        kMaxTimeoutMs);
    config.timeout = std::chrono::milliseconds(value.get<long long>());
    return true;
  }
  return false;
}

Result<LdconfigPrepared> LdconfigMethod::prepare(const graft_apply_context& context) const {
  auto sealed = seal_host_binary(config_.ldconfig);
  if (!sealed.ok()) return sealed.error().context("ldconfig");
  auto confinement = find_confinement(host_, plugin::pid_of(context), plugin::pidfd_of(context),
                                      config_.cgroup_root);
  if (!confinement.ok()) return confinement.error();
  return LdconfigPrepared{std::move(*sealed), std::move(*confinement)};
}

Status LdconfigMethod::run(const LdconfigPrepared& prepared, const graft_action& action,
                           const graft_apply_context& context, const std::string& root_name,
                           const std::vector<std::string>& preferred) const {
  ConfinedCommand command{.exe_fd = prepared.exe.get(),
                          .root_fd = context.rootfs_fd,
                          .root_name = root_name,
                          .uid = static_cast<uid_t>(context.container_uid),
                          .gid = static_cast<gid_t>(context.container_gid),
                          .timeout = config_.timeout};
  if (auto argv = add_arguments(action, preferred, command.argv); !argv.ok()) return argv;
  if (auto confined = confine(host_, prepared.confinement, root_name, command); !confined.ok())
    return confined;
  return run_confined(command);
}

}  // namespace graft::ldcache
