// SPDX-License-Identifier: Apache-2.0
// The host as the load tests see it, and what they count on it. The test
// process moves into a private mount namespace with fresh tmpfs on /tmp, /run
// and /dev/shm before anything is built, so runc, the graft hooks and the
// fake GPU host all live there: a file left in those directories or a mount
// left in the table can only come from this test, not from the other builds
// and tests sharing the machine. The namespace is still the one runc and the
// hook start from, so it sees every leak the real host would.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace graft::e2e {

// Enters the private host (once per process; later calls do nothing). ""
// when done, else why it could not be set up.
std::string enter_private_host();

// What must come back to the same value after every round of containers.
struct HostSnapshot {
  std::vector<std::string> mounts;     // lines of /proc/self/mountinfo
  std::set<std::string> temp_entries;  // "/tmp/x", "/run/y", "/dev/shm/z"
  std::set<std::string> host_files;    // every path under the fake host's root
  std::size_t open_fds = 0;            // this process's /proc/self/fd
};

// Taken between rounds, when no container, bundle or runtime state dir of
// the test exists; `fake_root` is walked recursively.
HostSnapshot snapshot_host(const std::string& fake_root);

// How `after` differs from `before`: "added X" / "removed X" per mount line
// or entry, and the change in open fds.
struct HostChanges {
  std::vector<std::string> mounts, temp_entries, host_files;
  long fd_growth = 0;
  bool none() const { return mounts.empty() && temp_entries.empty() && host_files.empty() && fd_growth == 0; }
  std::string describe() const;  // one line per change
};
HostChanges host_changes(const HostSnapshot& before, const HostSnapshot& after);

// Cgroup directories named `prefix`* left in the v1 devices hierarchy (runc
// makes one per container from linux.cgroupsPath and removes it on delete).
std::vector<std::string> cgroups_named(const std::string& prefix);

}  // namespace graft::e2e
