// SPDX-License-Identifier: Apache-2.0
// An Inventory written in code, for tests of the pure stages (planner,
// rules) that need no fake host on disk and no root. Each call adds one
// thing the host has; build() returns the value. Host paths are whatever
// the test says: the planner never opens them.
#pragma once

#include <optional>
#include <string>

#include "inventory/inventory.hpp"

namespace graft::test {

class InventoryBuilder {
 public:
  InventoryBuilder();  // driver "1.0", no GPUs, host roots "/"

  InventoryBuilder& driver(std::string version);  // "" = no driver loaded
  InventoryBuilder& roots(HostRoots roots);
  // The next GPU, indexed in the order added; uuid "GPU-<minor>", procfs
  // directory <proc_dir_parent>/<bus_id>.
  InventoryBuilder& gpu(unsigned minor, std::string bus_id,
                        std::string proc_dir_parent = "/proc/driver/gpu/gpus");
  // The next partition of the GPU at `gpu_index`, with its access files
  // under <proc_dir>/gi<gi>[/ci<ci>]/access and its capability minors.
  InventoryBuilder& partition(unsigned gpu_index, unsigned gi, unsigned ci,
                              std::optional<unsigned> gi_minor = std::nullopt,
                              std::optional<unsigned> ci_minor = std::nullopt);
  // A character device node at container path `path`, on the host under
  // dev_root; `exists` false when only /proc/devices told of it.
  InventoryBuilder& node(std::string path, unsigned major, unsigned minor, bool exists = true);
  InventoryBuilder& char_major(std::string name, unsigned major);
  InventoryBuilder& partition_cap(std::string name, unsigned minor);
  // One file chosen for the ld.so.cache key prefix `prefix`.
  InventoryBuilder& library(std::string prefix, std::string host_path, std::string soname,
                            bool lib32 = false);
  InventoryBuilder& binary(std::string name, std::string host_path);  // at /usr/bin/<name>
  InventoryBuilder& firmware(std::string glob, std::string host_path, std::string container_path);
  InventoryBuilder& ipc(std::string path, std::string host_path, bool directory = false);
  InventoryBuilder& config_file(std::string path, std::string host_path);

  const Inventory& build() const { return inventory_; }

 private:
  Inventory inventory_;
};

}  // namespace graft::test
