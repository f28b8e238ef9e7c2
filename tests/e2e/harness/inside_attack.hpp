// SPDX-License-Identifier: Apache-2.0
// The container that turns on what graft gave it: a busybox sh
// script, generated from `graft plan --format json`, that a root container
// holding CAP_SYS_ADMIN, CAP_CHOWN and CAP_FOWNER runs against every object
// graft bound in from the host: it chmods and chowns each one, then mounts
// over each one (a file bound onto files, nodes and sockets, a tmpfs onto
// directories), including the visible GPUs' directories under
// /proc/driver/nvidia. Each attempt prints "attack|verb|target|rc|error".
// Whether the attacks reach the host is for the test to see from outside.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft::e2e {

// Where the script lives inside the container.
inline constexpr const char* kAttackScript = "/graft-attack.sh";

std::string attack_script(const nlohmann::json& plan);

struct Attack {
  std::string verb;    // "chmod", "chown", "mount"
  std::string target;  // the container path
  int rc = -1;
  std::string error;   // the text after the last ": ", "" on success
};

// The attack lines of the script's output, in order.
std::vector<Attack> parse_attacks(const std::string& output);

// The host objects a plan binds into the container (bind_mount actions, and
// device nodes bound rather than made), with whether the plan binds it "rw".
struct BoundTarget {
  std::string target;
  bool writable = false;
};
std::vector<BoundTarget> bound_targets(const nlohmann::json& plan);

}  // namespace graft::e2e
