// SPDX-License-Identifier: Apache-2.0
// Inventory: what the host has, read once per evaluation without NVML:
// driver version, GPUs and their partitions, device nodes, char majors,
// driver libraries (ld.so.cache, library directories), binaries, firmware, IPC paths, config files.
// Discovery is steered by Policy::discovery; this file knows no vendor.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "inventory/partition_caps.hpp"
#include "policy/policy.hpp"

namespace graft {

// A GPU partition (GPU instance + compute instance) and the capability
// files/minors that grant access to it.
struct Partition {
  unsigned index = 0;  // position within its GPU, in (gi, ci) order
  unsigned gi = 0;
  unsigned ci = 0;
  std::string gi_access;  // host proc path of the GI access file
  std::string ci_access;  // host proc path of the CI access file
  std::optional<unsigned> gi_minor;
  std::optional<unsigned> ci_minor;
  std::string uuid;  // from discovery.partition_uuid_file; "" when unknown
};

struct Gpu {
  unsigned index = 0;  // position on the host: by vendor (gpu_sources order), then by minor
  std::string vendor;  // its [vendor.NAME]; "" for [discovery]'s own GPUs
  unsigned vendor_index = 0;  // position among its vendor's GPUs, by minor: what that vendor's tools count
  unsigned minor = 0;
  std::string uuid;
  std::string bus_id;  // as the driver prints it, e.g. "0000:19:00.0"
  std::string model;
  std::string proc_dir;  // host path of the GPU's procfs directory
  std::vector<Partition> partitions;
};

struct DeviceNode {
  std::string path;       // container path, e.g. "/dev/gpu0"
  std::string host_path;  // dev_root + path
  char type = 'c';
  unsigned major = 0;
  unsigned minor = 0;
  bool exists = false;    // false when derived from /proc/devices only
};

// Where discovery found a library: the driver root's ld.so.cache, or one of
// [discovery] library_dirs; `path` as the policy names it (under driver_root).
struct LibrarySource {
  enum class Kind { ldcache, dir };
  Kind kind = Kind::ldcache;
  std::string path;
};

// One library file chosen for an ld.so.cache key (or, from a directory, the
// file's DT_SONAME).
struct Library {
  std::string soname;     // cache key, e.g. "libvendor.so.1"
  std::string host_path;  // real file after resolving symlinks inside driver_root
  bool lib32 = false;
  LibrarySource source;
};

struct HostFile {
  std::string name;       // what the policy asked for ("vendor-smi", "/run/x/socket")
  std::string host_path;  // where it was found
  std::string container_path;
  bool directory = false;
};

struct Inventory {
  HostRoots roots;
  // The first GPU source's driver version (policy/vendors.hpp); empty when no driver is loaded.
  std::string driver_version;
  std::map<std::string, std::string> driver_versions;  // by vendor, each source's; "" for [discovery]'s
  std::vector<Gpu> gpus;       // index order
  std::map<std::string, unsigned> char_majors;     // /proc/devices "Character devices"
  PartitionCaps partition_caps;                    // partition_minors: name -> minor
  std::map<std::string, DeviceNode> device_nodes;  // by container path
  // Per-minor device classes (by name): the minors whose nodes the host has.
  std::map<std::string, std::vector<unsigned>> class_minors;
  // Per-GPU sysfs device classes (by name): GPU index -> its nodes' container paths.
  std::map<std::string, std::map<unsigned, std::vector<std::string>>> gpu_class_nodes;
  std::map<std::string, std::vector<Library>> libraries;  // by requested prefix
  std::map<std::string, HostFile> binaries;      // by name
  std::map<std::string, std::vector<HostFile>> firmware;  // by glob
  std::map<std::string, HostFile> ipc;           // by requested path
  std::map<std::string, HostFile> config_files;  // by requested path
  std::vector<std::string> warnings;             // missing items, in discovery order
};

// `vendor`'s driver version; the first source's for "" (a set of no vendor).
inline const std::string& driver_version_of(const Inventory& inventory, const std::string& vendor) {
  if (vendor.empty()) return inventory.driver_version;
  auto found = inventory.driver_versions.find(vendor);
  static const std::string none;
  return found == inventory.driver_versions.end() ? none : found->second;
}

// Reads the host. Missing optional items become warnings; unreadable or
// malformed driver files are errors naming the file.
Result<Inventory> discover_inventory(const Policy& policy);

}  // namespace graft
