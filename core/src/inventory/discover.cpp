// SPDX-License-Identifier: Apache-2.0
// Discovery orchestration: the order matters only where a step needs an
// earlier one (GPUs before their device nodes and partitions, the driver
// version before version-suffixed libraries and firmware).
#include "inventory/driver_procfs.hpp"
#include "inventory/host_files.hpp"
#include "inventory/inventory.hpp"
#include "inventory/partition_uuids.hpp"

namespace graft {

Result<Inventory> discover_inventory(const Policy& policy) {
  Inventory inventory;
  inventory.roots = policy.host;
  for (auto step : {read_driver_version, read_gpus, read_partition_caps, read_partitions,
                    read_partition_uuids, read_char_majors, find_libraries})
    if (auto status = step(policy, inventory); !status) return status.error();
  find_device_nodes(policy, inventory);
  find_binaries(policy, inventory);
  find_firmware(policy, inventory);
  find_ipc(policy, inventory);
  find_config_files(policy, inventory);
  return inventory;
}

}  // namespace graft
