// SPDX-License-Identifier: Apache-2.0
// The container's init process, held by a pidfd from the moment graft hears
// its pid (the hook's state, `graft apply --pid`) until the plan is applied.
// A pid is only a number: the process may exit and the number be reused by
// another, perhaps one in graft's own mount namespace. The pidfd always names
// the first process, so what graft reads under /proc/<pid>/ is checked
// against it after the read: the bytes belong to the container only if the
// pidfd's process is still running once they are in hand.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <utility>

#include "graft/base/error.hpp"
#include "graft/base/pidfd.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

// Who is applying: a hook's container is killed by its runtime when graft
// fails, `graft apply`'s keeps running with whatever was applied.
enum class ApplyCaller { hook, apply };

// A mount namespace, as the inode of /proc/<pid>/ns/mnt names it.
struct NamespaceId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const NamespaceId&) const = default;
};

class ContainerProcess {
 public:
  // open_pidfd(pid): refused when the process has already exited.
  static Result<ContainerProcess> open(int pid);
  ContainerProcess(ContainerProcess&&) noexcept = default;
  ContainerProcess& operator=(ContainerProcess&&) = delete;

  int pid() const { return pid_; }
  int pidfd() const { return pidfd_.get(); }
  // False once the process has exited (even before it is reaped).
  bool running() const { return process_running(pidfd_.get()); }

  // Runs `read`, then confirms the process still runs: what `read` got from
  // /proc/<pid>/... was then this process's. `what` names it in the error
  // ("its cgroup").
  template <class Read>
  auto confirmed(std::string_view what, Read read) const -> decltype(read()) {
    auto value = read();
    if (!value) return value;
    if (auto alive = confirm_running(pidfd_.get(), pid_, what); !alive) return alive.error();
    return value;
  }

  // /proc/<pid>/<name>, confirmed.
  Result<std::string> read_proc(const std::string& name, std::string_view what) const;
  // The mount namespace of /proc/<pid>/ns/mnt, confirmed.
  Result<NamespaceId> mount_namespace() const;

 private:
  ContainerProcess(int pid, UniqueFd pidfd) : pid_(pid), pidfd_(std::move(pidfd)) {}

  int pid_;
  UniqueFd pidfd_;
};

// graft's own mount namespace.
Result<NamespaceId> own_mount_namespace();

// Whether graft may enter the namespace `theirs` of container process `pid`:
// never one equal to its own. A container always has a mount namespace of
// its own; a pid that shares graft's is a wrong or recycled one, and
// applying there would put the plan's mounts and nodes on the host.
// --trust-pid does not lift this.
Status check_mount_namespace(int pid, NamespaceId ours, NamespaceId theirs);

// check_mount_namespace for `process`, read through /proc and confirmed.
Status check_not_own_mount_namespace(const ContainerProcess& process);

}  // namespace graft
