// SPDX-License-Identifier: Apache-2.0
// Intent: what a container is granted and why, as decided by the rules from
// Request + Inventory + Policy. It names GPUs and capabilities, not files;
// the planner turns it into concrete actions.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "policy/origin.hpp"

namespace graft {

struct Reason {
  std::string text;  // "VISIBLE_DEVICES=0", "lease for team-a"
  Origin origin;     // rule file:line, or policy file:line
  std::string rule;  // the rule that decided it; empty for the policy's own decisions

  bool operator==(const Reason&) const = default;
};

struct DeviceGrant {
  unsigned gpu = 0;                   // Gpu::index
  std::optional<unsigned> partition;  // Partition::index within that GPU
  Reason reason;

  bool operator==(const DeviceGrant&) const = default;
};

struct NamedGrant {
  std::string name;  // capability or extra name
  Reason reason;

  bool operator==(const NamedGrant&) const = default;
};

// Nodes of one device class granted by name, beside the GPUs: a fixed or
// glob class (a feature's devices), node N of a per-minor class (N = the
// minor), or GPU N's nodes of a per-GPU sysfs class (N = Gpu::index).
struct NodeGrant {
  std::string device_class;        // Policy::devices key
  std::optional<unsigned> number;  // set exactly for per-minor and per-GPU sysfs classes
  Reason reason;

  // "channel 3", "feature-nodes": how the plan and the audit name it.
  std::string name() const { return number ? device_class + " " + std::to_string(*number) : device_class; }
  bool operator==(const NodeGrant&) const = default;
};

struct Denial {
  std::string what;  // "capability display", "GPU 3", "request"
  Reason reason;

  bool operator==(const Denial&) const = default;
};

struct EnvGrant {
  std::string name;
  std::string value;
  Reason reason;

  bool operator==(const EnvGrant&) const = default;
};

// A small file the container gets, written by the plan (e.g. a driver
// profile naming only the granted GPUs).
struct FileGrant {
  std::string path;  // absolute container path
  std::string content;
  Reason reason;

  bool operator==(const FileGrant&) const = default;
};

struct Intent {
  // False means the container is not a GPU container: nothing is injected.
  bool inject = false;
  Reason inject_reason;
  // The vendors ([vendor.NAME]) it is a GPU container of: those a rule
  // injected for and those of its granted GPUs. Empty while injecting: every
  // vendor (a rule that named none), as on a host of one vendor.
  std::set<std::string> vendors;
  // Whether what belongs to `vendor` ("" for no vendor) is this container's.
  bool for_vendor(const std::string& vendor) const {
    return vendor.empty() || vendors.empty() || vendors.contains(vendor);
  }
  std::vector<std::string> request_notes;  // how the request was read, for the audit
  std::vector<DeviceGrant> devices;
  std::vector<NamedGrant> capabilities;
  std::vector<NamedGrant> extras;
  std::vector<NodeGrant> nodes;
  std::vector<EnvGrant> env;
  std::vector<FileGrant> files;
  std::vector<Denial> denials;  // things asked for and refused, kept for the audit
  // A hard refusal: the container must not start. Rendered as one error line.
  std::optional<Reason> refusal;

  bool operator==(const Intent&) const = default;
};

}  // namespace graft
