// SPDX-License-Identifier: Apache-2.0
// What a container's own configuration (an OCI config.json, a CDI spec's
// containerEdits) says of a plan by itself: device nodes, device cgroup
// rules, bind mounts, environment; and the hook command that carries out
// the rest. Plain data: a front end writes it into the file it edits.
#pragma once

#include <string>
#include <vector>

namespace graft {

struct DeviceNodeEdit {
  std::string path;       // in the container
  std::string host_path;  // empty when the host has no such node (the runtime makes it)
  char type = 'c';
  unsigned major = 0, minor = 0;
  bool operator==(const DeviceNodeEdit&) const = default;
};

struct DeviceRuleEdit {
  char type = 'c';
  unsigned major = 0, minor = 0;
  std::string access = "rw";
  bool operator==(const DeviceRuleEdit&) const = default;
};

struct MountEdit {
  std::string host_path;
  std::string container_path;
  std::vector<std::string> options;  // the plan's options plus "bind"
  bool operator==(const MountEdit&) const = default;
};

struct EnvEdit {
  std::string name, value;
  bool operator==(const EnvEdit&) const = default;
};

// The edits a configuration expresses natively, in plan order.
struct NativeEdits {
  std::vector<DeviceNodeEdit> device_nodes;
  std::vector<DeviceRuleEdit> device_rules;
  std::vector<MountEdit> mounts;
  std::vector<EnvEdit> env;
};

// A hook as an OCI config.json or a CDI spec writes one.
struct HookCommand {
  std::string path;               // absolute: the graft binary
  std::vector<std::string> args;  // argv, args[0] included
  std::vector<std::string> env;   // always given: the hook gets only this
  bool operator==(const HookCommand&) const = default;
};

// The PATH every hook graft emits gets, and nothing else: without an
// explicit env a runtime or CDI consumer could hand the hook variables
// (LD_PRELOAD, LD_LIBRARY_PATH) from somewhere graft does not control.
inline constexpr const char* kHookPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

}  // namespace graft
