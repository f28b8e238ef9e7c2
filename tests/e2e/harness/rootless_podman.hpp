// SPDX-License-Identifier: Apache-2.0
// Rootless podman as a workstation user runs it: a test user of its own
// (graft-rl-<pid>) with subordinate uid and gid ranges in /etc/subuid and
// /etc/subgid, podman run as that user (setpriv, a clean env) with a HOME,
// XDG_RUNTIME_DIR and storage of its own under a private directory, through
// newuidmap/newgidmap (Debian's uidmap), `--runtime runc --cgroup-manager
// cgroupfs`, no network and bounded ulimits as podman.hpp runs rooted podman.
// Images come from `podman import` of a root directory (the user must own
// what it runs). The user, its ranges, podman's pause process (which holds
// the rootless user namespace) and the directory go away with the object.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace graft::e2e {

// Why rootless podman cannot run here ("" when it can): not root, podman,
// runc, setpriv, useradd or newuidmap/newgidmap missing, or user namespaces
// switched off.
std::string rootless_podman_skip_reason();

class RootlessPodman {
 public:
  // Creates the user and its directories; throws std::runtime_error naming the step.
  RootlessPodman();
  ~RootlessPodman();
  RootlessPodman(const RootlessPodman&) = delete;
  RootlessPodman& operator=(const RootlessPodman&) = delete;

  uid_t uid() const { return uid_; }
  // A directory the user owns, for what its containers' hooks write (an audit log).
  std::string owned_dir() const { return dir_.path() + "/home/owned"; }

  // `podman import` of the directory `rootfs` as image `name`.
  testing::CommandResult import(const std::string& rootfs, const std::string& name);

  // `podman run --rm --network none <ulimits> <extra_args...> IMAGE <command...>`.
  testing::CommandResult run(const std::vector<std::string>& extra_args, const std::string& image,
                             const std::vector<std::string>& command);

  // Any podman command as the user, against its storage.
  testing::CommandResult invoke(const std::vector<std::string>& args);

 private:
  void remove_user() noexcept;

  std::string name_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  fixture::TempDir dir_{"graft-e2e-rootless-"};
};

}  // namespace graft::e2e
