// SPDX-License-Identifier: Apache-2.0
// What keeps the confined ldconfig to one container, learnt from its pid in
// the host's namespaces (prepare): the container's device cgroup, which the
// child joins before it touches the root, and the container's uid and gid
// maps, which choose the identity it runs as (child_identity.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "child_identity.hpp"
#include "confined_run.hpp"
#include "container_cgroup.hpp"
#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "plugin_glue.hpp"

namespace graft::ldcache {

struct ContainerConfinement {
  cgroup::ContainerCgroup cgroup;
  UniqueFd procs;  // v1: cgroup.procs of the devices cgroup, for writing
  std::vector<IdRange> uid_map, gid_map;
};

// The confinement of the container whose init is `pid` (pidfd confirms each
// read), with its cgroup found below `cgroup_root`. None without a pid (a
// debug line says what that means); an error when the cgroup or a map cannot
// be read.
Result<std::optional<ContainerConfinement>> find_confinement(const plugin::Host& host, int pid,
                                                             int pidfd,
                                                             const std::string& cgroup_root);

// Puts `command` into the container's cgroup, as an identity its user
// namespace maps (the rootfs owner in command.uid/gid, else the container's
// root). Nothing without a confinement. `root_name` is for messages.
Status confine(const plugin::Host& host, const std::optional<ContainerConfinement>& confinement,
               const std::string& root_name, ConfinedCommand& command);

}  // namespace graft::ldcache
