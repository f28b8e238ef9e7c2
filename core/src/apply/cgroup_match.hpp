// `graft apply --pid N --id ID`: is N the init of container ID? A pid typed
// by an operator or passed along by a script may be stale, and the wrong
// process would get the container's GPUs (or graft would apply into a
// namespace that is no container's). Every common runtime names the
// container's cgroup after its id: runc and crun with cgroupfs (/<id> or the
// cgroupsPath given), with systemd (runc-<id>.scope, crun-<id>.scope),
// containerd (cri-containerd-<id>.scope, /k8s.io/<id>), podman
// (libpod-<id>.scope), docker (docker-<id>.scope, /docker/<id>), LXC
// (lxc.payload.<id>). That check needs no runtime and no runtime root, so it
// is the one graft makes.
#pragma once

#include <string_view>

#include "apply/container_process.hpp"
#include "graft/base/error.hpp"

namespace graft {

// Whether some cgroup path in `proc_cgroup` (the text of /proc/<pid>/cgroup)
// has a component holding `id` as a whole word: bounded on each side by the
// component's start or end or by one of ".-_:@".
bool cgroup_names_container(std::string_view proc_cgroup, std::string_view id);

// Reads /proc/<pid>/cgroup (confirmed through the pidfd) and refuses a
// process whose cgroups do not name `id`.
Status check_process_is_container(const ContainerProcess& process, std::string_view id);

}  // namespace graft
