// SPDX-License-Identifier: Apache-2.0
// Finds the files capability sets name: device nodes, driver libraries (via
// the driver root's ld.so.cache), binaries, firmware, IPC endpoints and
// configuration files. Each lookup that finds nothing adds a warning.
#pragma once

#include "inventory/inventory.hpp"

namespace graft {

// Every value the capability sets list in `field`, each once, in policy order.
std::vector<std::string> names_in_sets(const Policy& policy,
                                       std::vector<SourcedString> CapabilitySet::*field);

void find_device_nodes(const Policy& policy, Inventory& inventory);
Status find_libraries(const Policy& policy, Inventory& inventory);
void find_binaries(const Policy& policy, Inventory& inventory);
void find_firmware(const Policy& policy, Inventory& inventory);
void find_ipc(const Policy& policy, Inventory& inventory);
void find_config_files(const Policy& policy, Inventory& inventory);

}  // namespace graft
