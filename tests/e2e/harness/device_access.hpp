// SPDX-License-Identifier: Apache-2.0
// What a running container may do with a device node, asked from inside it
// (`runc exec`) at any moment of its life: before and after something that
// rewrites its device cgroup (runc update, a systemd reload). Each function
// gives the argv to run in the container; the caller runs it with whatever
// runtime and wrapper holds the container.
#pragma once

#include <string>
#include <vector>

#include "run_command.hpp"

namespace graft::e2e {

// Opens `path` for reading and reads nothing (busybox head -c 0).
std::vector<std::string> open_node_command(const std::string& path);

// What that command's run says: "ok", or the open's error as busybox words
// it ("No such device or address" for a fake GPU the cgroup allows,
// "Operation not permitted" for one it refuses).
std::string open_node_outcome(const testing::CommandResult& run);

inline constexpr const char* kEPERM = "Operation not permitted";
inline constexpr const char* kENOENT = "No such file or directory";

// A node the container makes by hand (CAP_MKNOD): the cgroup, not the
// absence of the node, must be what refuses it.
struct HandMadeNode {
  std::string path;  // in the container
  unsigned major = 0;
  unsigned minor = 0;
};

// The fake host's GPU 0 (not granted to a GPU 1 container), at /dev/nvidia0.
HandMadeNode fake_gpu0_node();

std::vector<std::string> mknod_command(const HandMadeNode& node);

// `runc update` options that change a resource the container's cgroup
// has: its memory limit where the memory controller is there, else none.
// Either way runc re-applies every resource of the container, its device
// rules included. On this hybrid host the unified hierarchy has no
// controllers (the v1 hierarchies hold them), so the v2 cases pass none.
std::vector<std::string> runc_update_options(bool has_memory_controller);

}  // namespace graft::e2e
