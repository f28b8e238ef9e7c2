// SPDX-License-Identifier: Apache-2.0
// Request: what one container asks for, as the runtime describes it. Built from
// the OCI state and its bundle (hook), an OCI bundle (`graft plan --bundle`,
// `graft apply --bundle`) or command-line flags (audit path). It holds
// facts only; what they mean (which env var selects GPUs) is policy.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

struct RequestMount {
  std::string destination;
  std::string source;
  std::string type;
  std::vector<std::string> options;
};

// Where the image's own loader looks for libraries, and why graft thinks so
// (core/src/request/image_layout.cpp has the rule).
struct LibraryDir {
  std::string path;    // "/usr/lib/x86_64-linux-gnu"
  std::string reason;  // "the image's multiarch directory"
};

// Facts about the image's filesystem layout that decide where files go.
struct ImageLayout {
  bool known = false;  // false when planning without a rootfs: dirs empty
  LibraryDir lib_dir;
  LibraryDir lib32_dir;
};

struct Request {
  std::string container_id;  // OCI state id, or "audit" for flag-built requests
  std::string bundle;        // absolute bundle dir; empty for flag-built requests
  std::string rootfs;        // absolute host path of root.path; empty if unknown
  bool rootfs_readonly = false;
  int pid = 0;               // container init pid from the OCI state; 0 if none
  std::string cgroups_path;  // linux.cgroupsPath as written (informational)
  std::vector<std::string> device_paths;  // linux.devices[].path, in order

  // process.env in order; later duplicates win, as runc applies them.
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> annotations;
  std::vector<RequestMount> mounts;
  // CAP_SYS_ADMIN in process.capabilities.bounding (or --privileged).
  bool privileged = false;
  ImageLayout layout;
};

// Reads <bundle>/config.json. `container_id` and `pid` come from the OCI state.
Result<Request> request_from_bundle(const std::string& bundle, const std::string& container_id,
                                    int pid);

// Parses the text of a config.json as request_from_bundle does, for a bundle
// at `bundle` (absolute; relative root paths are joined to it). Pure: the ids
// stay empty and the image layout unknown (read_image_layout reads it).
// Errors do not name a file.
Result<Request> parse_bundle_config(std::string_view text, const std::string& bundle);

// Looks inside the (untrusted) rootfs for the directories its loader uses:
// its multiarch directory, else one its ld.so.conf or ld.so.cache names,
// else /usr/lib64 (image_layout.cpp). A few syscalls when the multiarch
// directory exists, as in nearly every image.
ImageLayout read_image_layout(const std::string& rootfs);

// What a plan without a rootfs assumes: the multiarch directories, with a
// reason saying that the image decides.
ImageLayout assumed_image_layout();

struct OciState;

// The hook's request: the state's bundle read as request_from_bundle does,
// with the state's id, pid and annotations (add_state_annotations).
Result<Request> request_from_state(const OciState& state);

// Adds the OCI state's annotations to those config.json gave. A key both
// name keeps config.json's value: the runtime copied it from there. Pure.
void add_state_annotations(Request& request, const std::map<std::string, std::string>& annotations);

// Builds an audit request from --env K=V / --annotation K=V flags.
Result<Request> request_from_flags(const std::vector<std::string>& env,
                                   const std::vector<std::string>& annotations, bool privileged,
                                   const std::string& rootfs);

}  // namespace graft
