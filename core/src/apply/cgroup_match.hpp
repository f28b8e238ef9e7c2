// SPDX-License-Identifier: Apache-2.0
// `graft apply --pid N --id ID`: is N the init of container ID? A pid typed
// by an operator or passed along by a script may be stale, and the wrong
// process would get the container's GPUs (or graft would apply into a
// namespace that is no container's). Every common runtime names the
// container's cgroup after its id, in one of a few forms: the id as a whole
// path component (runc and crun with cgroupfs, /docker/<id>, /k8s.io/<id>),
// a systemd scope <prefix>-<id>.scope (runc, crun, docker, cri-containerd,
// crio, libpod), podman's and CRI-O's cgroupfs libpod-<id> and crio-<id>,
// podman's split libpod-payload-<id>, LXC's lxc.payload.<id>. That check
// needs no runtime and no runtime root, so it is the one graft makes; the id
// found anywhere else in a name (web1-old, session-3.scope) does not count.
#pragma once

#include <string_view>

#include "apply/container_process.hpp"
#include "graft/base/error.hpp"

namespace graft {

// Whether some cgroup path in `proc_cgroup` (the text of /proc/<pid>/cgroup)
// has a component that names `id` in one of the runtimes' forms above.
bool cgroup_names_container(std::string_view proc_cgroup, std::string_view id);

// Reads /proc/<pid>/cgroup (confirmed through the pidfd) and refuses a
// process whose cgroups do not name `id`.
Status check_process_is_container(const ContainerProcess& process, std::string_view id);

}  // namespace graft
