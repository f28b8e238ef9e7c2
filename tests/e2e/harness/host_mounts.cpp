// SPDX-License-Identifier: Apache-2.0
#include "host_mounts.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace graft::e2e {

std::vector<std::string> mountinfo_lines() {
  std::ifstream in("/proc/self/mountinfo");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string mount_point_of(const std::string& line) {
  std::istringstream fields(line);
  std::string field;
  for (int i = 0; i < 5 && fields >> field; ++i) {
  }
  return field;
}

bool at_or_under(const std::string& path, const std::string& dir) {
  return path == dir || path.starts_with(dir + "/");
}

std::vector<std::string> mount_points_under(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& line : mountinfo_lines()) {
    std::string point = mount_point_of(line);
    if (at_or_under(point, dir)) found.push_back(point);
  }
  return found;
}

// runc 1.1 protects its own binary (CVE-2019-5736) by bind-mounting it
// read-only over a copy in its state directory, in the host's namespace, for
// the moment a container starts: with ctest running tests in parallel, another
// test's runc shows up here, and so does the state of the engines the
// runtime shim tests start (shim_clients.hpp: Docker's network namespace
// files, their runc's state). A runtime state dir is never graft's target.
// The tests' own runtimes keep their state in "graft-e2e-state-" directories
// (the engines in "graft-dockerd-" and "graft-containerd-"); podman gives
// runc no --root, so its runc mounts its binary as /run/runc/<id>/runc.XXXXXX,
// which the mount's root (the runc binary) and name say. crun does the same
// over /tmp/crun.XXXXXX (seen when podman's conmon runs its default runtime,
// crun, for a container cleanup while another test watches the table).
bool is_runtime_state_mount(const std::string& line) {
  std::istringstream fields(line);
  std::string id, parent, device, mount_root;
  fields >> id >> parent >> device >> mount_root;
  std::string mount_point = mount_point_of(line);
  for (const char* state : {"/graft-e2e-state-", "/graft-dockerd-", "/graft-containerd-"})
    if (mount_point.find(state) != std::string::npos) return true;
  // The systemd host's root filesystem being built (debootstrap mounts /proc
  // and /sys in its target; tests/scripts/systemd-host-rootfs.sh's cache).
  if (mount_point.find("/graft/systemd-host/") != std::string::npos) return true;
  std::string name = mount_point.substr(mount_point.rfind('/') + 1);
  for (const char* runtime : {"runc", "crun"})
    if (mount_root.ends_with(std::string("/") + runtime) && name.starts_with(std::string(runtime) + "."))
      return true;
  return false;
}

HostMounts::HostMounts() : before_(mountinfo_lines()) {}

std::vector<std::string> HostMounts::added() const {
  std::vector<std::string> added;
  for (const auto& line : mountinfo_lines())
    if (std::find(before_.begin(), before_.end(), line) == before_.end() && !is_runtime_state_mount(line))
      added.push_back(line);
  return added;
}

long HostMounts::count_change() const { return static_cast<long>(added().size()); }

}  // namespace graft::e2e
