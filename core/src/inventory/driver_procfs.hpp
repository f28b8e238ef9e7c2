// SPDX-License-Identifier: Apache-2.0
// Reads the driver's procfs and sysfs files: version, per-GPU records,
// partition capability minors and tree, and /proc/devices majors. Which files
// and keys is policy data (Policy::discovery); this code knows formats only.
#pragma once

#include "inventory/inventory.hpp"

namespace graft {

Status read_driver_version(const Policy& policy, Inventory& inventory);
Status read_gpus(const Policy& policy, Inventory& inventory);
Status read_partition_caps(const Policy& policy, Inventory& inventory);
Status read_partitions(const Policy& policy, Inventory& inventory);
Status read_char_majors(const Policy& policy, Inventory& inventory);

// The root a [discovery] path is read under: sys_root for "/sys/...",
// proc_root for any other.
const std::string& discovery_root(const HostRoots& roots, std::string_view path);

// Expands "{minor}", "{gi}", "{ci}", "{bus_id}", "{driver_version}" in a template.
std::string expand_template(std::string text, const std::map<std::string, std::string>& values);

}  // namespace graft
