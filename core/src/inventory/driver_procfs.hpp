// SPDX-License-Identifier: Apache-2.0
// Reads the driver's procfs files: version, per-GPU information records,
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

// Expands "{minor}", "{gi}", "{ci}", "{bus_id}", "{driver_version}" in a template.
std::string expand_template(std::string text, const std::map<std::string, std::string>& values);

}  // namespace graft
