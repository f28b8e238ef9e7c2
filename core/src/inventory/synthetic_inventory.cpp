// SPDX-License-Identifier: Apache-2.0
// synthetic_inventory: GPUs numbered by index (minor = index), partitions
// numbered (gi = partition + 1, ci 0) with capability minors counted up from
// 10, and everything the policy's capability sets, device classes and
// extras name, under the policy's host roots. Majors are made up: 195 for
// fixed and per-GPU nodes, 511 for partition capabilities, 510 for the
// nodes of per-minor classes (minors 0 to 3), 226 for per-GPU sysfs
// classes (minor = the GPU's index).
#include "inventory/synthetic_inventory.hpp"

#include <fmt/format.h>

#include "paths/paths.hpp"
#include "inventory/driver_procfs.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

constexpr unsigned kSyntheticNodeMajor = 195;
constexpr unsigned kSyntheticCapsMajor = 511;
constexpr unsigned kSyntheticMinorMajor = 510;
constexpr unsigned kSyntheticClassMinors = 4;
constexpr unsigned kSyntheticDisplayMajor = 226;

// Every value of one field of every capability set, once each.
std::set<std::string> synthetic_names_in_sets(const Policy& policy,
                                              std::vector<SourcedString> CapabilitySet::*field) {
  std::set<std::string> names;
  for (const auto& [_, set] : policy.capabilities)
    for (const auto& item : set.*field) names.insert(item.value);
  return names;
}

Gpu make_synthetic_gpu(unsigned index, unsigned vendor_index, const std::string& vendor, const SyntheticGpu& shape,
                       const Policy& policy) {
  Gpu gpu{.index = index,
          .vendor = vendor,
          .vendor_index = vendor_index,
          .minor = vendor_index,
          .uuid = shape.uuid.empty() ? synthetic_uuid(index) : shape.uuid,
          .bus_id = fmt::format("0000:{:02x}:00.0", index + 1),
          .model = shape.model.empty() ? "synthetic GPU" : shape.model,
          .proc_dir = "",
          .partitions = {}};
  std::string dir = join_root(policy.host.proc_root, expand_template(gpu_discovery_of(policy, vendor).partition_dir,
                                                                     {{"minor", std::to_string(gpu.minor)}}));
  for (unsigned p = 0; p < shape.partitions; ++p) {
    std::string gi_dir = dir + "/gi" + std::to_string(p + 1);
    gpu.partitions.push_back(Partition{.index = p,
                                       .gi = p + 1,
                                       .ci = 0,
                                       .gi_access = gi_dir + "/access",
                                       .ci_access = gi_dir + "/ci0/access",
                                       .gi_minor = {},
                                       .ci_minor = {},
                                       .uuid = p < shape.partition_uuids.size() ? shape.partition_uuids[p] : ""});
  }
  return gpu;
}

// Minors for the extras' named capabilities and each partition's GI and CI.
void add_synthetic_caps(const HostShape& shape, const Policy& policy, Inventory& inventory) {
  unsigned next = 1;
  for (const auto& [_, extra] : policy.extras)
    for (const auto& name : extra.caps)
      if (!shape.missing.count(name) && !inventory.partition_caps.contains(name))
        inventory.partition_caps.set(name, next++);
  next = 10;
  auto assign = [&](const std::string& key, std::optional<unsigned>& minor,
                    const std::map<std::string, std::string>& values) {
    if (key.empty()) return;
    std::string name = expand_template(key, values);
    if (shape.missing.count(name)) return;
    minor = next++;
    inventory.partition_caps.set(name, *minor);
  };
  for (auto& gpu : inventory.gpus)
    for (auto& partition : gpu.partitions) {
      std::map<std::string, std::string> values{{"minor", std::to_string(gpu.minor)},
                                                {"gi", std::to_string(partition.gi)},
                                                {"ci", std::to_string(partition.ci)}};
      const GpuDiscovery& discovery = gpu_discovery_of(policy, gpu.vendor);
      assign(discovery.partition_gi_key, partition.gi_minor, values);
      assign(discovery.partition_ci_key, partition.ci_minor, values);
    }
}

void add_synthetic_node(const std::string& path, unsigned major, unsigned minor, const HostShape& shape,
                        const Policy& policy, Inventory& inventory) {
  if (shape.missing.count(path)) return;
  inventory.device_nodes[path] =
      DeviceNode{path, join_root(policy.host.dev_root, path), 'c', major, minor, true};
}

// A per-minor class has nodes 0 to kSyntheticClassMinors - 1 (all of them
// unless `missing` names the class or a node's path).
void add_synthetic_minor_nodes(const DeviceClass& device_class, const HostShape& shape, const Policy& policy,
                               Inventory& inventory) {
  if (shape.missing.count(device_class.name)) return;
  if (!device_class.major_name.empty()) inventory.char_majors[device_class.major_name] = kSyntheticMinorMajor;
  std::vector<unsigned>& minors = inventory.class_minors[device_class.name];
  for (unsigned minor = 0; minor < kSyntheticClassMinors; ++minor) {
    std::string path = expand_template(device_class.path, {{"minor", std::to_string(minor)}});
    if (shape.missing.count(path)) continue;
    add_synthetic_node(path, kSyntheticMinorMajor, minor, shape, policy, inventory);
    minors.push_back(minor);
  }
}

// A per-GPU sysfs class: one node per GPU, named as the sys_path's last
// part with each wildcard read as the GPU's index ("card*" -> "card1").
void add_synthetic_gpu_sysfs_nodes(const DeviceClass& device_class, const HostShape& shape, const Policy& policy,
                                   Inventory& inventory) {
  if (shape.missing.count(device_class.name)) return;
  for (const auto& gpu : inventory.gpus) {
    if (!serves_vendor(device_class.vendor, gpu.vendor)) continue;
    std::string name = basename_of(device_class.sys_path);
    for (auto wild = name.find_first_of("*?"); wild != std::string::npos; wild = name.find_first_of("*?"))
      name.replace(wild, 1, std::to_string(gpu.index));
    std::string path = expand_template(device_class.path, {{"name", name}});
    if (shape.missing.count(path)) continue;
    add_synthetic_node(path, kSyntheticDisplayMajor, gpu.index, shape, policy, inventory);
    inventory.gpu_class_nodes[device_class.name][gpu.index].push_back(path);
  }
}

// A fixed class: its node, or for a glob class one node named as the glob
// with each wildcard read as "0".
std::string synthetic_fixed_path(const DeviceClass& device_class) {
  std::string path = device_class.path;
  if (!device_class.is_glob()) return path;
  for (auto wild = path.find_first_of("*?"); wild != std::string::npos; wild = path.find_first_of("*?"))
    path.replace(wild, 1, "0");
  return path;
}

void add_synthetic_nodes(const HostShape& shape, const Policy& policy, Inventory& inventory) {
  unsigned fixed_minor = 255;
  for (const auto& [_, device_class] : policy.devices) {
    if (device_class.per == DeviceClass::Per::fixed) {
      if (device_class.is_glob() && shape.missing.count(device_class.path)) continue;
      add_synthetic_node(synthetic_fixed_path(device_class), kSyntheticNodeMajor, fixed_minor--, shape, policy,
                         inventory);
    } else if (device_class.per == DeviceClass::Per::minor) {
      add_synthetic_minor_nodes(device_class, shape, policy, inventory);
    } else if (device_class.per == DeviceClass::Per::gpu_sysfs) {
      add_synthetic_gpu_sysfs_nodes(device_class, shape, policy, inventory);
    } else if (device_class.per == DeviceClass::Per::gpu) {
      for (const auto& gpu : inventory.gpus)
        if (serves_vendor(device_class.vendor, gpu.vendor))
          add_synthetic_node(expand_template(device_class.path, {{"minor", std::to_string(gpu.minor)}}),
                             kSyntheticNodeMajor, gpu.minor, shape, policy, inventory);
    } else {
      if (!device_class.major_name.empty())
        inventory.char_majors[device_class.major_name] = kSyntheticCapsMajor;
      for (const auto& [_, minor] : inventory.partition_caps)
        add_synthetic_node(expand_template(device_class.path, {{"minor", std::to_string(minor)}}),
                           kSyntheticCapsMajor, minor, shape, policy, inventory);
    }
  }
}

void add_synthetic_libraries(const HostShape& shape, const Policy& policy, Inventory& inventory) {
  bool lib32 = false;
  for (const auto& [_, set] : policy.capabilities) lib32 |= set.lib32;
  for (const auto& prefix : synthetic_names_in_sets(policy, &CapabilitySet::libraries)) {
    if (shape.missing.count(prefix)) continue;
    std::string file = prefix + "." + shape.driver_version;
    std::vector<Library>& found = inventory.libraries[prefix];
    LibrarySource cache{LibrarySource::Kind::ldcache, policy.discovery.ldcache};
    found.push_back(
        {prefix + ".1", join_root(policy.host.driver_root, "/usr/lib/x86_64-linux-gnu/" + file), false, cache});
    if (lib32)
      found.push_back(
          {prefix + ".1", join_root(policy.host.driver_root, "/usr/lib/i386-linux-gnu/" + file), true, cache});
  }
}

void add_synthetic_files(const HostShape& shape, const Policy& policy, Inventory& inventory) {
  const HostRoots& roots = policy.host;
  for (const auto& name : synthetic_names_in_sets(policy, &CapabilitySet::binaries))
    if (!shape.missing.count(name))
      inventory.binaries[name] =
          HostFile{name, join_root(roots.driver_root, "/usr/bin/" + name), "/usr/bin/" + name, false};
  for (const auto& glob : synthetic_names_in_sets(policy, &CapabilitySet::firmware)) {
    if (shape.missing.count(glob)) continue;
    std::string relative = expand_template(glob, {{"driver_version", shape.driver_version}});
    std::string name = basename_of(relative);
    for (auto star = name.find('*'); star != std::string::npos; star = name.find('*'))
      name.replace(star, 1, "0");
    std::string path =
        normalize_path(policy.discovery.firmware_dir + "/" + dirname_of(relative) + "/" + name);
    inventory.firmware[glob] = {HostFile{name, join_root(roots.driver_root, path), path, false}};
  }
  for (const auto& path : synthetic_names_in_sets(policy, &CapabilitySet::ipc))
    if (!shape.missing.count(path))
      inventory.ipc[path] = HostFile{path, join_root(roots.run_root, path), path, false};
  for (const auto& path : synthetic_names_in_sets(policy, &CapabilitySet::config_files))
    if (!shape.missing.count(path))
      inventory.config_files[path] = HostFile{path, join_root(roots.driver_root, path), path, false};
}

// In index order: each source's GPUs, numbered by minor within it.
void add_synthetic_gpus(const HostShape& shape, const Policy& policy, Inventory& inventory) {
  for (const auto& source : gpu_sources(policy)) {
    inventory.driver_versions[source.vendor] = shape.driver_version;
    unsigned vendor_index = 0;
    for (const auto& gpu : shape.gpus) {
      if (!gpu.vendor.empty() && gpu.vendor != source.vendor) continue;
      auto index = static_cast<unsigned>(inventory.gpus.size());
      inventory.gpus.push_back(make_synthetic_gpu(index, vendor_index++, source.vendor, gpu, policy));
    }
  }
}

}  // namespace

std::string synthetic_uuid(unsigned index) {
  return fmt::format("GPU-{:08x}-0000-4000-8000-{:012x}", index, index);
}

HostShape uniform_host(unsigned count, const std::set<unsigned>& mig, unsigned partitions) {
  HostShape shape;
  for (unsigned i = 0; i < count; ++i) shape.gpus.push_back({.partitions = mig.count(i) ? partitions : 0});
  return shape;
}

HostShape sample_host() { return uniform_host(2, {1}, 2); }

Inventory synthetic_inventory(const HostShape& shape, const Policy& policy) {
  Inventory inventory;
  inventory.roots = policy.host;
  inventory.driver_version = shape.driver_version;
  add_synthetic_gpus(shape, policy, inventory);
  add_synthetic_caps(shape, policy, inventory);
  add_synthetic_nodes(shape, policy, inventory);
  add_synthetic_libraries(shape, policy, inventory);
  add_synthetic_files(shape, policy, inventory);
  return inventory;
}

}  // namespace graft
