// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin's ldconfig method (config method = "ldconfig"), its one
// entry point: the host's static ldconfig, run confined to the container root.
//   prepare (host mount ns): seal the host ldconfig into a memfd
//     (sealed_binary.hpp); find the container's device cgroup and read its
//     uid and gid maps from its pid (container_confinement.hpp).
//   run (container mount ns): `ldconfig -f /etc/ld.so.conf -C <target>
//     <preferred...> <paths...>` from the memfd, chrooted into the root,
//     inside the container's device cgroup, as an identity the container
//     maps (confined_run.hpp, child_identity.hpp).
// Without a container pid (`graft apply` on a bare root) there is no cgroup
// to join and no map to check: ldconfig runs outside any device cgroup,
// where nodev alone keeps it from device nodes, as the root's owner (a debug
// line says so). With a pid whose cgroup or maps cannot be found, prepare
// fails. No binary of the image is ever executed, and ldconfig reads the
// image's own /etc/ld.so.conf only from inside the chroot. The plugin checks
// the cache it wrote, as it checks its own writer's.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "container_confinement.hpp"
#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::ldcache {

// Config keys of this method: "ldconfig", "timeout_ms", "cgroup_root".
struct LdconfigConfig {
  std::string ldconfig = "/sbin/ldconfig";
  std::chrono::milliseconds timeout{10000};
  std::string cgroup_root = "/sys/fs/cgroup";
};

// Reads `key` into `config` when it is one of this method's keys (true), or
// says it is not (false); an error names a bad value.
Result<bool> read_ldconfig_key(const std::string& key, const nlohmann::json& value,
                               LdconfigConfig& config);

// What prepare opened for one action, used once by run.
struct LdconfigPrepared {
  UniqueFd exe;                                     // the sealed host ldconfig
  std::optional<ContainerConfinement> confinement;  // none without a container pid
};

class LdconfigMethod {
 public:
  LdconfigMethod(const plugin::Host& host, LdconfigConfig config)
      : host_(host), config_(std::move(config)) {}

  // Host mount namespace: the only place the host's ldconfig is opened.
  Result<LdconfigPrepared> prepare(const graft_apply_context& context) const;

  // Container mount namespace: runs ldconfig for `action`, the `preferred`
  // image directories first. `root_name` is for messages.
  Status run(const LdconfigPrepared& prepared, const graft_action& action,
             const graft_apply_context& context, const std::string& root_name,
             const std::vector<std::string>& preferred) const;

 private:
  plugin::Host host_;
  LdconfigConfig config_;
};

}  // namespace graft::ldcache
