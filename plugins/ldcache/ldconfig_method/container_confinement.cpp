// SPDX-License-Identifier: Apache-2.0
// Finding a container's device cgroup and id maps, and confining the
// ldconfig child to them (container_confinement.hpp).
#include "container_confinement.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "container_process.hpp"

namespace graft::ldcache {
namespace {

// Read, then confirmed through the pidfd: a reused pid's maps are not the container's.
Result<std::vector<IdRange>> read_id_map(int pid, int pidfd, const char* which) {
  auto text = plugin::read_container_proc(pidfd, pid, which, which);
  if (!text.ok()) return text.error();
  auto map = parse_id_map(*text);
  if (!map.ok()) return map.error().context(fmt::format("/proc/{}/{}", pid, which));
  return map;
}

}  // namespace

Result<std::optional<ContainerConfinement>> find_confinement(const plugin::Host& host, int pid,
                                                             int pidfd,
                                                             const std::string& cgroup_root) {
  if (pid <= 0) {
    host.debug("no container pid: ldconfig runs outside any device cgroup (nodev alone "
               "keeps it from device nodes), as the root's owner");
    return std::optional<ContainerConfinement>();
  }
  auto cgroup = cgroup::find_container_cgroup(pid, pidfd, cgroup_root);
  if (!cgroup.ok())
    return cgroup.error().context("ldconfig must run in the container's device cgroup");
  ContainerConfinement container{std::move(*cgroup), {}, {}, {}};
  if (container.cgroup.mode == cgroup::CgroupMode::v1) {
    container.procs = UniqueFd(::openat(container.cgroup.dir.get(), "cgroup.procs",
                                        O_WRONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!container.procs.valid())
      return make_sys_error(errno, "ldconfig must run in the container's device cgroup: {}/cgroup.procs",
                        container.cgroup.path);
  }
  auto uids = read_id_map(pid, pidfd, "uid_map");
  if (!uids.ok()) return uids.error();
  auto gids = read_id_map(pid, pidfd, "gid_map");
  if (!gids.ok()) return gids.error();
  container.uid_map = std::move(*uids);
  container.gid_map = std::move(*gids);
  return std::optional<ContainerConfinement>(std::move(container));
}

Status confine(const plugin::Host& host, const std::optional<ContainerConfinement>& confinement,
               const std::string& root_name, ConfinedCommand& command) {
  if (!confinement) return ok_status();
  auto identity =
      child_identity(command.uid, command.gid, confinement->uid_map, confinement->gid_map);
  if (!identity.ok()) return identity.error().context(root_name);
  if (identity->fell_back)
    host.debug(fmt::format("the owner {}:{} of {} is not mapped by the container's user "
                           "namespace: ldconfig runs as the container's root, {}:{}",
                           command.uid, command.gid, root_name, identity->uid, identity->gid));
  command.uid = identity->uid;
  command.gid = identity->gid;
  command.cgroup_name = confinement->cgroup.path;
  if (confinement->cgroup.mode == cgroup::CgroupMode::v2)
    command.cgroup_dir_fd = confinement->cgroup.dir.get();
  else
    command.cgroup_procs_fd = confinement->procs.get();
  return ok_status();
}

}  // namespace graft::ldcache
