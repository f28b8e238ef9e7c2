// SPDX-License-Identifier: Apache-2.0
#include "inventory/host_files.hpp"

#include <glob.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>
#include <string_view>

#include "paths/paths.hpp"
#include "paths/root_links.hpp"
#include "inventory/driver_procfs.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

std::optional<DeviceNode> stat_node(const std::string& path, const std::string& dev_root) {
  DeviceNode node;
  node.path = path;
  node.host_path = join_root(dev_root, path);
  struct stat info {};
  if (::stat(node.host_path.c_str(), &info) != 0 || !S_ISCHR(info.st_mode)) return std::nullopt;
  node.exists = true;
  node.major = ::major(info.st_rdev);
  node.minor = ::minor(info.st_rdev);
  return node;
}

void add_node(const std::string& path, const std::string& dev_root, Inventory& inventory) {
  if (auto node = stat_node(path, dev_root)) inventory.device_nodes[path] = *node;
  else inventory.warnings.push_back("device node " + join_root(dev_root, path) + " not found");
}

// Capability nodes are often created on first use, so a missing node is
// described from the /proc/devices major instead.
void add_partition_node(unsigned minor, const DeviceClass& device_class, Inventory& inventory,
                        const std::string& dev_root) {
  std::string path = expand_template(device_class.path, {{"minor", std::to_string(minor)}});
  if (auto node = stat_node(path, dev_root)) {
    inventory.device_nodes[path] = *node;
    return;
  }
  auto major = inventory.char_majors.find(device_class.major_name);
  if (major == inventory.char_majors.end()) return;
  inventory.device_nodes[path] =
      DeviceNode{path, join_root(dev_root, path), 'c', major->second, minor, false};
}

// Only the capabilities something can grant: existing partitions and the
// caps extras name. The minors table lists every possible partition of every
// possible GPU (thousands), most of which never exist.
std::set<unsigned> partition_minors_in_use(const Policy& policy, const Inventory& inventory,
                                           const std::string& vendor) {
  std::set<unsigned> minors;
  for (const auto& gpu : inventory.gpus)
    if (serves_vendor(vendor, gpu.vendor))
      for (const auto& partition : gpu.partitions)
        for (auto minor : {partition.gi_minor, partition.ci_minor})
          if (minor) minors.insert(*minor);
  for (const auto& [_, extra] : policy.extras)
    for (const auto& name : extra.caps)
      if (auto found = inventory.partition_caps.find(name)) minors.insert(*found);
  return minors;
}

// Paths under `root` matching `pattern` (written as on a plain host), as
// paths without the root, sorted.
std::vector<std::string> glob_under_root(const std::string& pattern, const std::string& root) {
  std::string host_pattern = join_root(root, pattern);
  std::string prefix = host_pattern.substr(0, host_pattern.size() - pattern.size());
  glob_t found{};
  std::vector<std::string> paths;
  if (::glob(host_pattern.c_str(), 0, nullptr, &found) == 0)
    for (std::size_t i = 0; i < found.gl_pathc; ++i)
      paths.push_back(std::string(found.gl_pathv[i]).substr(prefix.size()));
  ::globfree(&found);
  return paths;
}

// Every node a glob class matches; none is not a warning here (the class
// is asked for only on request, and the plan says when nothing matched).
void add_glob_nodes(const DeviceClass& device_class, const std::string& dev_root, Inventory& inventory) {
  for (const auto& path : glob_under_root(device_class.path, dev_root))
    if (auto node = stat_node(path, dev_root)) inventory.device_nodes[path] = *node;
}

// The nodes a per-minor class has on the host: its template with {minor}
// as a glob, the minor read back from the name (the number in place of
// {minor}); names that are not a number there are not the class's.
void add_minor_nodes(const DeviceClass& device_class, const std::string& dev_root, Inventory& inventory) {
  const std::string& path = device_class.path;
  std::size_t at = path.find("{minor}");
  if (at == std::string::npos) return;  // refused by the policy checks; a class built in code may lack it
  std::string_view head(path.data(), at), tail(path.data() + at + 7, path.size() - at - 7);
  std::vector<unsigned>& minors = inventory.class_minors[device_class.name];
  for (const auto& found : glob_under_root(std::string(head) + "*" + std::string(tail), dev_root)) {
    std::string_view number(found.data() + head.size(), found.size() - head.size() - tail.size());
    unsigned minor = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), minor);
    if (ec != std::errc() || end != number.data() + number.size() || std::to_string(minor) != number) continue;
    if (auto node = stat_node(found, dev_root)) {
      inventory.device_nodes[found] = *node;
      minors.push_back(minor);
    }
  }
  std::sort(minors.begin(), minors.end());
}

// "0000:19:00.0" as sysfs names PCI devices: lower-case hex, a 4-digit
// domain (procfs may print 8, "00000000:19:00.0").
std::string sysfs_bus_id(std::string bus_id) {
  for (char& c : bus_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t colon = bus_id.find(':');
  std::size_t extra = colon == std::string::npos || colon <= 4 ? 0 : colon - 4;
  while (extra > 0 && bus_id.front() == '0') {
    bus_id.erase(0, 1);
    --extra;
  }
  return bus_id;
}

// The names of a GPU's nodes: the entries sys_path matches under sys_root,
// or else the name the dev_link under dev_root points to (a udev by-path
// link, "../card1"), for hosts whose sysfs is not mounted where graft looks.
std::vector<std::string> gpu_node_names(const DeviceClass& device_class, const std::string& bus_id,
                                        const HostRoots& roots) {
  std::vector<std::string> names;
  std::string pattern = expand_template(device_class.sys_path, {{"bus_id", bus_id}});
  for (const auto& entry : glob_under_root(pattern, roots.sys_root)) names.push_back(basename_of(entry));
  if (!names.empty() || device_class.dev_link.empty()) return names;
  std::string link = join_root(roots.dev_root, expand_template(device_class.dev_link, {{"bus_id", bus_id}}));
  char target[256];
  ssize_t size = ::readlink(link.c_str(), target, sizeof(target) - 1);
  if (size > 0) names.push_back(basename_of(std::string_view(target, static_cast<std::size_t>(size))));
  return names;
}

// Each GPU's nodes of a per-GPU sysfs class: `path` with {name} = each of
// gpu_node_names, stat'ed under dev_root.
void add_gpu_sysfs_nodes(const DeviceClass& device_class, const HostRoots& roots, Inventory& inventory) {
  auto& by_gpu = inventory.gpu_class_nodes[device_class.name];
  for (const auto& gpu : inventory.gpus) {
    if (!serves_vendor(device_class.vendor, gpu.vendor)) continue;
    for (const auto& name : gpu_node_names(device_class, sysfs_bus_id(gpu.bus_id), roots)) {
      std::string path = expand_template(device_class.path, {{"name", name}});
      if (auto node = stat_node(path, roots.dev_root)) {
        inventory.device_nodes[path] = *node;
        by_gpu[gpu.index].push_back(path);
      }
    }
  }
}

}  // namespace

std::vector<std::string> names_in_sets(const Policy& policy,
                                       std::vector<SourcedString> CapabilitySet::*field) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& [_, set] : policy.capabilities)
    for (const auto& entry : set.*field)
      if (seen.insert(entry.value).second) names.push_back(entry.value);
  return names;
}

void find_device_nodes(const Policy& policy, Inventory& inventory) {
  const std::string& dev_root = policy.host.dev_root;
  std::vector<std::string> in_sets = names_in_sets(policy, &CapabilitySet::devices);
  for (const auto& [name, device_class] : policy.devices) {
    switch (device_class.per) {
      case DeviceClass::Per::fixed:
        if (device_class.is_glob()) {
          add_glob_nodes(device_class, dev_root, inventory);
        } else if (std::find(in_sets.begin(), in_sets.end(), name) == in_sets.end()) {
          // Only rules grant it (a feature's node): the plan warns if granted and missing.
          if (auto node = stat_node(device_class.path, dev_root)) inventory.device_nodes[device_class.path] = *node;
        } else {
          add_node(device_class.path, dev_root, inventory);
        }
        break;
      case DeviceClass::Per::gpu:
        for (const auto& gpu : inventory.gpus)
          if (serves_vendor(device_class.vendor, gpu.vendor))
            add_node(expand_template(device_class.path, {{"minor", std::to_string(gpu.minor)}}),
                   dev_root, inventory);
        break;
      case DeviceClass::Per::partition:
        for (unsigned minor : partition_minors_in_use(policy, inventory, device_class.vendor))
          add_partition_node(minor, device_class, inventory, dev_root);
        break;
      case DeviceClass::Per::minor:
        add_minor_nodes(device_class, dev_root, inventory);
        break;
      case DeviceClass::Per::gpu_sysfs:
        add_gpu_sysfs_nodes(device_class, policy.host, inventory);
        break;
    }
  }
}

void find_binaries(const Policy& policy, Inventory& inventory) {
  RootLinks links(policy.host.driver_root);
  for (const auto& name : names_in_sets(policy, &CapabilitySet::binaries)) {
    bool found = false;
    for (const auto& dir : policy.discovery.binary_dirs) {
      // Resolved inside the driver root (paths/paths.hpp), never against "/".
      struct stat info {};
      auto real = links.stat(dir + "/" + name, info);
      if (!real || !S_ISREG(info.st_mode)) continue;
      inventory.binaries[name] =
          HostFile{name, join_root(policy.host.driver_root, *real), "/usr/bin/" + name, false};
      found = true;
      break;
    }
    if (!found) inventory.warnings.push_back("binary " + name + " not found");
  }
}

// One firmware glob of a set, with its vendor's driver version.
void find_firmware_glob(const Policy& policy, const std::string& pattern, const std::string& version,
                        Inventory& inventory) {
  std::string relative = expand_template(pattern, {{"driver_version", version}});
  std::string container_glob = normalize_path(policy.discovery.firmware_dir + "/" + relative);
  // The directory resolved inside the driver root first: glob(3) follows
  // symlinks against the host's "/".
  auto real_dir = follow_links_in_root(policy.host.driver_root, dirname_of(container_glob));
  if (!real_dir) {
    inventory.warnings.push_back("no firmware matches " + container_glob);
    return;
  }
  std::string host_glob =
      join_root(policy.host.driver_root, (*real_dir == "/" ? "" : *real_dir) + "/" + basename_of(container_glob));
  glob_t matches{};
  std::vector<HostFile> files;
  if (::glob(host_glob.c_str(), 0, nullptr, &matches) == 0)
    for (size_t i = 0; i < matches.gl_pathc; ++i) {
      std::string host_path = matches.gl_pathv[i];
      std::string name = basename_of(host_path);
      files.push_back({name, host_path, dirname_of(container_glob) + "/" + name, false});
    }
  ::globfree(&matches);
  if (files.empty()) inventory.warnings.push_back("no firmware matches " + container_glob);
  inventory.firmware[pattern] = std::move(files);
}

void find_firmware(const Policy& policy, Inventory& inventory) {
  std::set<std::string> seen;
  for (const auto& [_, set] : policy.capabilities) {
    const std::string& version = driver_version_of(inventory, set.vendor);
    if (version.empty()) continue;
    for (const auto& pattern : set.firmware)
      if (seen.insert(pattern.value).second) find_firmware_glob(policy, pattern.value, version, inventory);
  }
}

void find_ipc(const Policy& policy, Inventory& inventory) {
  for (const auto& path : names_in_sets(policy, &CapabilitySet::ipc)) {
    std::string host_path = join_root(policy.host.run_root, path);
    struct stat info {};
    if (::stat(host_path.c_str(), &info) != 0) {
      inventory.warnings.push_back("IPC path " + host_path + " not found");
      continue;
    }
    inventory.ipc[path] = HostFile{path, host_path, path, S_ISDIR(info.st_mode)};
  }
}

void find_config_files(const Policy& policy, Inventory& inventory) {
  RootLinks links(policy.host.driver_root);
  for (const auto& path : names_in_sets(policy, &CapabilitySet::config_files)) {
    struct stat info {};
    auto real = links.stat(path, info);
    if (!real || !S_ISREG(info.st_mode)) {
      inventory.warnings.push_back("config file " + join_root(policy.host.driver_root, path) +
                                   " not found");
      continue;
    }
    inventory.config_files[path] =
        HostFile{path, join_root(policy.host.driver_root, *real), path, false};
  }
}

}  // namespace graft
