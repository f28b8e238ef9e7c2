// SPDX-License-Identifier: Apache-2.0
// A /dev of the test's own, in the private mount namespace the process is
// in (private_namespace.hpp), holding the fake host's GPU nodes at their real
// paths. Rootless runc cannot make a device node in its user namespace: it
// bind-mounts the host's node from the node's *container* path (/dev/nvidia1),
// whatever a CDI spec's hostPath says. So a rootless test needs the fake
// nodes where a real driver's would be, and the machine's /dev must not get
// them: a tmpfs is laid over /dev in the private namespace only, with the
// nodes every container needs (null, zero, full, random, urandom, tty,
// ptmx, pts, shm, mqueue) bound in from the machine's.
#pragma once

#include <string>

namespace graft::e2e {

class PrivateDev {
 public:
  // Throws std::runtime_error naming the step that failed. `fake_dev` is the
  // fake host's dev directory (<root>/dev): every character device below it
  // is made at the same path below /dev.
  explicit PrivateDev(const std::string& fake_dev);
  ~PrivateDev();  // rmdir of the staging directory, never a recursive removal
  PrivateDev(const PrivateDev&) = delete;
  PrivateDev& operator=(const PrivateDev&) = delete;

 private:
  // Where the machine's /dev is bound while the new one is filled.
  std::string staging_;
};

}  // namespace graft::e2e
