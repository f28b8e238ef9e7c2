// SPDX-License-Identifier: Apache-2.0
// A made-up host, built in memory: what `graft policy check` runs its sample
// requests on and what `graft policy test` cases describe in [host]. Pure:
// nothing is read from disk, no root is needed. Besides the GPUs and their
// partitions it holds every file and device node the policy names, as if the
// driver were fully installed, so a plan made on it shows what a real host
// with the same GPUs would give; `missing` takes single items away.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "inventory/inventory.hpp"
#include "policy/policy.hpp"

namespace graft {

struct SyntheticGpu {
  // A [vendor.NAME]; empty: one GPU of each of the policy's GPU sources
  // (policy/vendors.hpp), so a uniform host has `count` GPUs per vendor.
  std::string vendor;
  std::string uuid;   // empty: made from the index
  std::string model;  // empty: "synthetic GPU"
  unsigned partitions = 0;
  std::vector<std::string> partition_uuids;  // by partition index; missing: no UUID
};

struct HostShape {
  std::string driver_version = "1.0.0";
  std::vector<SyntheticGpu> gpus;
  // Device node paths (a glob class's by its glob, a per-minor class's one
  // by one or all by the class name), library prefixes, binary names, IPC
  // or config file paths, firmware globs and partition-minor names the host lacks.
  std::set<std::string> missing;
};

// `count` GPUs; those whose index is in `mig` get `partitions` partitions each.
HostShape uniform_host(unsigned count, const std::set<unsigned>& mig, unsigned partitions);

// The host `graft policy check` runs its samples on: two GPUs, the second
// with two partitions.
HostShape sample_host();

// The UUID a synthetic GPU gets when its shape names none.
std::string synthetic_uuid(unsigned index);

Inventory synthetic_inventory(const HostShape& shape, const Policy& policy);

}  // namespace graft
