// SPDX-License-Identifier: Apache-2.0
// The host's mount table before and after a test: a container runtime, the
// hook's prepare phase or a failed apply must never leave a mount behind in
// the namespace the test (the "host") runs in.
#pragma once

#include <string>
#include <vector>

namespace graft::e2e {

// The lines of /proc/self/mountinfo, now.
std::vector<std::string> mountinfo_lines();

// Field 5 of a mountinfo line: where the mount is attached.
std::string mount_point_of(const std::string& mountinfo_line);

// Whether `path` is `dir` or lies below it ("/a/b" is under "/a", "/ab" is not).
bool at_or_under(const std::string& path, const std::string& dir);

// The mount points in /proc/self/mountinfo at or under `dir`.
std::vector<std::string> mount_points_under(const std::string& dir);

// A container runtime's or engine's own mount in its state directory (runc's
// protected copy of its binary while a container starts, podman's /dev/shm
// for one, Docker's network namespaces), which a test running beside this
// one makes in the host's namespace: never graft's doing, so neither a leak
// nor an escape.
bool is_runtime_state_mount(const std::string& mountinfo_line);

class HostMounts {
 public:
  // Snapshots /proc/self/mountinfo now.
  HostMounts();

  // Lines of /proc/self/mountinfo that were not there at construction: a
  // leaked mount, or a changed one (propagation flags are part of the line;
  // every mount has its own id). count_change() is how many, from one read.
  // Mounts that went away are not counted: other tests and builds on the
  // machine unmount their own while this one runs, and graft never unmounts
  // in the host's namespace, so a removal said nothing about graft and made
  // parallel ctest runs flaky.
  std::vector<std::string> added() const;
  long count_change() const;

 private:
  std::vector<std::string> before_;
};

}  // namespace graft::e2e
