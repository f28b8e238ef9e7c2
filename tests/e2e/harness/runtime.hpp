// SPDX-License-Identifier: Apache-2.0
// Running an OCI bundle with a real runtime (runc or crun), with a private
// state directory (--root) and a unique container id per container, in the
// host's cgroup v1 layout or, for cgroup v2, inside a private mount
// namespace where cgroup2 is mounted on /sys/fs/cgroup and the container's
// own bpf filesystem on /sys/fs/bpf. The container is always deleted
// (`delete -f`) when the Container goes away. A front (graft-runtime) may
// take the runtime's place in every call, in the same namespace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace graft::e2e {

using testing::CommandResult;

enum class Runtime { runc, crun };
enum class CgroupMode { v1, v2 };

std::string_view runtime_name(Runtime runtime);
std::string_view mode_name(CgroupMode mode);

// Absolute path of the runtime's binary, "" when it is not installed.
std::string runtime_path(Runtime runtime);

// Why end-to-end containers cannot run here with this runtime and mode
// ("" when they can): not root, runtime, busybox, ldconfig or unshare missing.
std::string skip_reason(Runtime runtime, CgroupMode mode);

// Whether a container's cgroup in this mode has the memory controller here.
// Not in v2 mode on a hybrid host: its v1 hierarchies hold every controller.
bool has_memory_controller(CgroupMode mode);

// "graft-e2e-<tag>-<pid>-<n>": unique across parallel test processes.
std::string unique_container_id(std::string_view tag);

class Container {
 public:
  // `front`, when given, is called in place of the runtime's binary, with
  // its own options first (graft-runtime --graft-policy P): it finds the
  // real runtime itself.
  Container(Runtime runtime, CgroupMode mode, std::string id, std::vector<std::string> front = {});
  ~Container();  // `delete -f`, in the same cgroup mode
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  const std::string& id() const { return id_; }
  Runtime runtime() const { return runtime_; }
  CgroupMode mode() const { return mode_; }

  // `run --bundle B ID` in the foreground: returns when the container's
  // process exits; its stdout and stderr are the runtime's.
  CommandResult run(const std::string& bundle);
  // `run -d`: returns once the container's process has started.
  CommandResult run_detached(const std::string& bundle);
  CommandResult exec(const std::vector<std::string>& args);
  // `update OPTIONS... ID`: runc sets the container's resources again.
  CommandResult update(const std::vector<std::string>& options);
  // The container's init pid from `state`, 0 when it has none.
  int pid();
  CommandResult remove();  // `delete -f`
  // The runtime's --root: one entry per container it still knows.
  const std::string& state_dir() const { return state_dir_.path(); }

 private:
  CommandResult invoke(const std::vector<std::string>& args);
  const std::string& bpf_dir();  // v2 mode on a v1 host: see runtime.cpp

  Runtime runtime_;
  CgroupMode mode_;
  std::string id_;
  std::vector<std::string> front_;  // empty: the runtime's own binary
  fixture::TempDir state_dir_{"graft-e2e-state-"};
  std::string bpf_dir_;  // "" until mounted
};

}  // namespace graft::e2e
