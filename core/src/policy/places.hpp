// SPDX-License-Identifier: Apache-2.0
// Places: where on the host a vendor's sets may take what they give a
// container, as the vendor policy declares it ([vendor.NAME.places]). A
// site policy narrows what containers get; it never names a host path
// beyond these (core/src/boundary/, docs/security.md "The policy boundary").
// Pure data: each entry keeps where it was declared.
#pragma once

#include <string>
#include <vector>

#include "policy/origin.hpp"

namespace graft {

struct Place {
  std::string path;  // an absolute path or fnmatch(3) pattern, as on a plain host (no root)
  Origin origin;     // the vendor policy's line, or the node allow file's
};

struct Places {
  // /proc/devices names of drivers whose every character device is a GPU
  // device of this vendor: a node of another major is taken only where
  // `devices` names its path exactly (a node of a shared major, misc's).
  std::vector<Place> device_drivers;
  std::vector<Place> devices;                // device node paths (under dev_root)
  std::vector<Place> sockets;                // sockets and FIFOs (under run_root)
  std::vector<Place> directories;            // directories bound writable (IPC directories)
  std::vector<Place> read_only_directories;  // directories bound read-only (procfs, device directories)
  std::vector<Place> files;                  // regular files bound read-only (configuration, firmware)
  // Directories graft itself writes into as root for the policy (claims,
  // the audit log). Vendors declare none: graft's own are built in, and a
  // node adds its own in its allow file.
  std::vector<Place> state_dirs;

  void append(const Places& other);
  bool empty() const;
};

}  // namespace graft
