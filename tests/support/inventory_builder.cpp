// SPDX-License-Identifier: Apache-2.0
#include "inventory_builder.hpp"

#include <fmt/format.h>

#include "paths/paths.hpp"

namespace graft::test {

InventoryBuilder::InventoryBuilder() { inventory_.driver_version = "1.0"; }

InventoryBuilder& InventoryBuilder::driver(std::string version) {
  inventory_.driver_version = std::move(version);
  return *this;
}

InventoryBuilder& InventoryBuilder::roots(HostRoots roots) {
  inventory_.roots = std::move(roots);
  return *this;
}

InventoryBuilder& InventoryBuilder::gpu(unsigned minor, std::string bus_id,
                                        std::string proc_dir_parent) {
  Gpu gpu;
  gpu.index = static_cast<unsigned>(inventory_.gpus.size());
  gpu.minor = minor;
  gpu.uuid = fmt::format("GPU-{}", minor);
  gpu.proc_dir = proc_dir_parent + "/" + bus_id;
  gpu.bus_id = std::move(bus_id);
  gpu.model = "Test GPU";
  inventory_.gpus.push_back(std::move(gpu));
  return *this;
}

InventoryBuilder& InventoryBuilder::partition(unsigned gpu_index, unsigned gi, unsigned ci,
                                              std::optional<unsigned> gi_minor,
                                              std::optional<unsigned> ci_minor) {
  Gpu& gpu = inventory_.gpus.at(gpu_index);
  std::string gi_dir = fmt::format("{}/gi{}", gpu.proc_dir, gi);
  gpu.partitions.push_back(Partition{.index = static_cast<unsigned>(gpu.partitions.size()),
                                     .gi = gi,
                                     .ci = ci,
                                     .gi_access = gi_dir + "/access",
                                     .ci_access = fmt::format("{}/ci{}/access", gi_dir, ci),
                                     .gi_minor = gi_minor,
                                     .ci_minor = ci_minor});
  return *this;
}

InventoryBuilder& InventoryBuilder::node(std::string path, unsigned major, unsigned minor,
                                         bool exists) {
  DeviceNode node{.path = path,
                  .host_path = join_root(inventory_.roots.dev_root, path),
                  .type = 'c',
                  .major = major,
                  .minor = minor,
                  .exists = exists};
  inventory_.device_nodes[std::move(path)] = std::move(node);
  return *this;
}

InventoryBuilder& InventoryBuilder::char_major(std::string name, unsigned major) {
  inventory_.char_majors[std::move(name)] = major;
  return *this;
}

InventoryBuilder& InventoryBuilder::partition_cap(std::string name, unsigned minor) {
  inventory_.partition_caps.set(name, minor);
  return *this;
}

InventoryBuilder& InventoryBuilder::library(std::string prefix, std::string host_path,
                                            std::string soname, bool lib32) {
  inventory_.libraries[std::move(prefix)].push_back(
      Library{.soname = std::move(soname), .host_path = std::move(host_path), .lib32 = lib32});
  return *this;
}

InventoryBuilder& InventoryBuilder::binary(std::string name, std::string host_path) {
  HostFile file{.name = name, .host_path = std::move(host_path), .container_path = "/usr/bin/" + name};
  inventory_.binaries[std::move(name)] = std::move(file);
  return *this;
}

InventoryBuilder& InventoryBuilder::firmware(std::string glob, std::string host_path,
                                             std::string container_path) {
  inventory_.firmware[glob].push_back(HostFile{
      .name = glob, .host_path = std::move(host_path), .container_path = std::move(container_path)});
  return *this;
}

InventoryBuilder& InventoryBuilder::ipc(std::string path, std::string host_path, bool directory) {
  HostFile file{.name = path, .host_path = std::move(host_path), .container_path = path, .directory = directory};
  inventory_.ipc[std::move(path)] = std::move(file);
  return *this;
}

InventoryBuilder& InventoryBuilder::config_file(std::string path, std::string host_path) {
  HostFile file{.name = path, .host_path = std::move(host_path), .container_path = path};
  inventory_.config_files[std::move(path)] = std::move(file);
  return *this;
}

}  // namespace graft::test
