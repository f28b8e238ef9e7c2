// SPDX-License-Identifier: Apache-2.0
// Plan: the ordered, typed actions that give one container what its Intent
// grants. Each action names the plugin that executes it and where it came from.
// `graft plan` renders it; `graft hook` applies it: the same data either way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "policy/origin.hpp"
#include "intent/intent.hpp"

namespace graft {

enum class ActionKind {
  device_node,    // make a host device node appear at target (bind onto empty file)
  cgroup_allow,   // allow "c MAJ:MIN rw" in the container's device cgroup
  bind_mount,     // bind host source at target with options
  symlink,        // create target -> link_value inside the container
  procfs_mask,    // tmpfs at target holding filtered copies of source files
  config_file,    // write `content` to target
  env,            // set NAME=VALUE for the container (renderers that can edit config)
  ldcache_update  // refresh the container's ld.so.cache for `paths`
};

const char* to_string(ActionKind kind);

struct Provenance {
  std::string capability;  // grouping for the auditor: "compute", "GPU 1", "base"
  std::string reason;      // "compute", "GPU 1 (VISIBLE_DEVICES=1)"
  Origin origin;
};

// The executor env actions name: no plugin sets a variable (a hook runs after
// the runtime built the process), the container's runtime config does, as
// graft-runtime and CDI write it; `graft hook` and `graft apply` refuse them.
inline constexpr const char* kRuntimeConfigExecutor = "runtime-config";

struct Action {
  ActionKind kind = ActionKind::bind_mount;
  std::string plugin;  // executing plugin: devices, libraries, ipc, procfs, cgroup, ldcache;
                       //   kRuntimeConfigExecutor for env
  std::string source;  // host path (or link value for symlinks, content name for configs)
  std::string target;  // container path; for cgroup_allow "c MAJ:MIN"
  std::vector<std::string> options;  // "ro", "nosuid", "nodev", "noexec", "rw", "mkdir"...
  char device_type = 0;              // device_node / cgroup_allow
  unsigned major = 0, minor = 0;
  std::string access;                // cgroup access, "rw"
  std::string content;               // config_file content, env value; ldcache_update: the
                                     //   entries the new cache must list, one per line
  std::vector<std::string> paths;    // procfs_mask: files kept; ldcache_update: dirs
  std::vector<std::string> rewrites; // procfs_mask: "file:from=>to"
  Provenance provenance;
};

// A granted GPU (or partition) with the identity an auditor recognises.
struct GrantedDevice {
  unsigned index = 0;
  std::optional<unsigned> partition;
  unsigned minor = 0;
  std::string uuid;
  std::string bus_id;
  Reason reason;
};

struct Plan {
  std::string container_id;
  std::string bundle;
  std::string driver_version;
  bool inject = false;
  Intent intent;  // kept for rendering the "request/granted/denied" header
  std::vector<GrantedDevice> devices;
  std::string lib_dir;    // container library dir chosen for this image
  std::string lib32_dir;
  std::string lib_dir_reason;    // why: "the image's multiarch directory"
  std::string lib32_dir_reason;
  std::vector<Action> actions;  // deterministic order
  std::vector<std::string> warnings;
};

}  // namespace graft
