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

// runc 1.1 protects its own binary (CVE-2019-5736) by bind-mounting it
// read-only over a copy in its state directory, in the host's namespace, for
// the moment a container starts: with ctest running tests in parallel, another
// test's runc shows up here. The same goes for the state of the engines the
// runtime shim tests start (shim_clients.hpp: Docker's network namespace
// files, their runc's state). A runtime's or engine's state dir is never
// graft's target; the shim tests check that the engines leave none behind.
bool is_runtime_state_mount(const std::string& line) {
  std::istringstream fields(line);
  std::string field, mount_point;
  for (int i = 0; i < 5 && fields >> field; ++i) mount_point = field;
  for (const char* state : {"/graft-e2e-state-", "/graft-dockerd-", "/graft-containerd-"})
    if (mount_point.find(state) != std::string::npos) return true;
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
