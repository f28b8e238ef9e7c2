// SPDX-License-Identifier: Apache-2.0
// A host set up like a systemd host for the tests of attacks from inside a
// container: this process enters a private mount namespace (so nothing here
// reaches the machine's real mount table or a test running in parallel) and
// there makes the fake host's tree a *shared* mount, as /, /dev, /run and
// /proc are on every systemd host. A mount graft hands a container that is
// still a peer of the host's then carries the container's mounts back here,
// where the test can see them. For cgroup v2, the namespace also gets the
// cgroup2 hierarchy and a bpf filesystem, so the runtime runs in v2 mode
// without a namespace of its own (see Container::invoke). The destructor
// returns to the namespace the process came from.
#pragma once

#include <string>

#include "private_namespace.hpp"
#include "runtime.hpp"

namespace graft::e2e {

class SharedHostTree {
 public:
  // Throws std::runtime_error naming the call that failed.
  SharedHostTree(const std::string& tree, CgroupMode mode);
  SharedHostTree(const SharedHostTree&) = delete;
  SharedHostTree& operator=(const SharedHostTree&) = delete;

  // The tree's line in /proc/self/mountinfo ("... shared:N ..."), for messages.
  std::string mountinfo_line() const;

 private:
  PrivateNamespace namespace_;
  std::string tree_;
};

}  // namespace graft::e2e
