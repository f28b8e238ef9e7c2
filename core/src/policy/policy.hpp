// SPDX-License-Identifier: Apache-2.0
// Policy: the merged site policy (site file + includes + drop-ins). Pure data;
// it names what exists (capability sets, device classes, discovery paths) and
// who may ask for what. Vendor knowledge arrives here from policies/, never code.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"
#include "policy/origin.hpp"
#include "policy/places.hpp"

namespace graft {

template <typename T>
struct Sourced {
  T value;
  Origin origin;
};
using SourcedString = Sourced<std::string>;

// Every host root is configurable so tests and driver containers can point anywhere.
struct HostRoots {
  std::string driver_root = "/";  // driver libraries, binaries, firmware, ld.so.cache
  std::string dev_root = "/";     // device nodes
  std::string proc_root = "/";    // driver procfs (version, gpus, capabilities, /proc/devices)
  std::string sys_root = "/";
  std::string run_root = "/";     // IPC sockets and pipes
};

struct SymlinkSpec {
  std::string link;    // name created in the container library dir, e.g. "libvendor.so"
  std::string target;  // what it points to, may use {driver_version}
  Origin origin;
};

// A named set of things a container gets when it has this capability.
struct CapabilitySet {
  std::string name;
  Origin origin;
  // "" or a [vendor.NAME]: a vendor's set is part only of that vendor's
  // containers (its `always`, its {driver_version}, its library version).
  std::string vendor;
  bool always = false;  // part of every injection (of its vendor), whatever capabilities were asked
  bool lib32 = false;   // adds the 32-bit copy of every library already selected
  std::vector<SourcedString> libraries;     // ld.so.cache key prefixes ("libvendor.so")
  std::vector<SourcedString> binaries;      // names searched in discovery.binary_dirs
  std::vector<SourcedString> firmware;      // globs under discovery.firmware_dir
  std::vector<SourcedString> ipc;           // paths under host.run_root
  std::vector<SourcedString> devices;       // names of [device.*] classes
  std::vector<SourcedString> config_files;  // paths under host.driver_root, same path inside
  std::vector<SourcedString> pulls;         // "<set>.<field>" borrowed from another set
  std::vector<SymlinkSpec> symlinks;
};

// How a device node is found. A fixed class names one node, or with a glob
// path (`*`, `?`, `[`) every node it matches; per-GPU, per-partition and
// per-minor classes are templates expanded with {minor}. A per-minor class
// has no node of its own: rules grant node N of it (grant:add_node), as for
// numbered channels whose minor is the channel number. A per-GPU sysfs
// class finds each GPU's nodes through sysfs by bus id: every entry
// `sys_path` matches names a node, `path` with {name} = the entry's name
// (a GPU's display nodes).
struct DeviceClass {
  enum class Per { fixed, gpu, partition, minor, gpu_sysfs };
  std::string name;
  std::string path;        // container path, e.g. "/dev/gpu{minor}"; host path is dev_root + path
  Per per = Per::fixed;
  std::string major_name;  // /proc/devices name used when the node is absent (e.g. caps)
  std::string sys_path;    // gpu_sysfs: a glob under sys_root with {bus_id}, e.g. ".../{bus_id}/drm/card*"
  std::string dev_link;    // gpu_sysfs: a link under dev_root with {bus_id}, read when sys_path matches nothing
  bool required = false;   // missing node is an error rather than a warning
  std::string vendor;      // "" or a [vendor.NAME]: a per-GPU class of a vendor expands over its GPUs only
  Origin origin;

  bool is_glob() const { return per == Per::fixed && path.find_first_of("*?[") != std::string::npos; }
};

struct VersionRegex;  // policy/version_regex.hpp: kept out of every includer of this header

// Where one vendor's GPUs and driver version are read: [vendor.NAME], or the
// unnamed source of [discovery] itself. Paths are written as on a plain host
// ("/proc/...", "/sys/...") and read under proc_root, or under sys_root when
// they start with "/sys/" (discovery_root in inventory/driver_procfs.hpp).
struct GpuDiscovery {
  std::string version_file;     // e.g. "/proc/driver/x/version"
  std::string version_pattern;  // ECMAScript regex, group 1 = version
  // false: a missing version_file means the version is unknown (a driver
  // built into the kernel may have none), not that no driver is loaded.
  bool version_required = true;
  // version_pattern compiled once by the policy reader (std::regex takes
  // longer to compile than discovery takes to read the driver); null when
  // a Policy is built in code, and discovery compiles the pattern itself.
  std::shared_ptr<const VersionRegex> version_regex;
  std::string gpu_glob;         // e.g. "/proc/driver/x/gpus/*/information"
  // How a per-GPU record file spells its fields: "Key: value" or "key value" lines.
  enum class RecordFormat { colon, space };
  RecordFormat gpu_record_format = RecordFormat::colon;
  std::map<std::string, std::string> gpu_fields;  // uuid, minor, bus_id, bus_domain, model -> key in file
  // A record whose field (a key in the file) has this value is not a GPU.
  std::map<std::string, std::string> gpu_skip;
  // Named conversions of a read field (uuid, bus_id) before use
  // (inventory/field_transform.hpp): "pci-location-id" makes a PCI bus id
  // of a packed bus/device/function number and bus_domain; "hex" writes a
  // decimal number as "0x" and lower-case hex.
  enum class FieldTransform { pci_location_id, hex };
  std::map<std::string, FieldTransform> gpu_field_transforms;
  std::string partition_minors; // under proc_root: lines "<name> <minor>"
  std::string partition_dir;    // under proc_root, with {minor}: holds gi*/ci*/access
  std::string partition_gi_key; // key in partition_minors for a GI, e.g. "gpu{minor}/gi{gi}/access"
  std::string partition_ci_key; // same for a CI
  // Host file mapping partition UUIDs to (GPU minor, GI, CI), one
  // "<uuid> <minor> <gi> <ci>" per line, written by a partition manager; ""
  // or absent: partitions have no UUIDs. Read as a trusted file.
  std::string partition_uuid_file;
  // Which library files fit: those whose real file ends in ".so.<driver
  // version>" (a driver's own libraries), or any version (a user space
  // versioned apart from the kernel driver, e.g. a compute runtime).
  enum class LibraryVersion { driver, any };
  LibraryVersion library_version = LibraryVersion::driver;

  bool finds_anything() const { return !gpu_glob.empty() || !version_file.empty(); }
};

// Where discovery looks on the host as a whole (libraries, binaries,
// firmware), and the GPUs of the unnamed source a policy without
// [vendor.NAME] tables describes here.
struct Discovery : GpuDiscovery {
  std::string ldcache = "/etc/ld.so.cache";  // under driver_root
  // Where driver libraries are looked for: the ld.so.cache first, then (for
  // a name or ABI the cache gave nothing fit for) library_dirs in order; or
  // library_dirs alone, without opening the cache.
  enum class LibrarySearch { cache_then_dirs, dirs_only };
  LibrarySearch library_search = LibrarySearch::cache_then_dirs;
  Origin library_search_origin;  // where library_search was set last; empty: the default
  std::vector<std::string> library_dirs;  // under driver_root; none: the cache alone
  std::vector<std::string> binary_dirs = {"/usr/bin", "/usr/sbin", "/bin", "/sbin"};
  std::string firmware_dir = "/lib/firmware";  // under driver_root
};

// [vendor.NAME]: one vendor's GPUs on a host that may have several. Its
// capability sets, device classes and [procfs] say `vendor = "NAME"`.
struct Vendor {
  std::string name;
  Origin origin;
  GpuDiscovery discovery;
  std::string cdi_kind;                // the CDI kind whose devices are its GPUs; "": none
  std::vector<std::string> audit_env;  // env patterns the audit log records, beside [audit] env
  Places places;                       // [vendor.NAME.places], from shipped files only
  std::vector<Origin> site_places;     // where a site file declared places: ignored, `policy check` says so
};

// A tmpfs over a container procfs directory holding only what the plan allows.
struct ProcfsMask {
  struct Rewrite {
    std::string file, from, to;
  };
  std::string path;                 // e.g. "/proc/driver/x": container path, and host path under proc_root
  std::vector<std::string> copy;    // files copied into the tmpfs
  std::vector<Rewrite> rewrites;    // first occurrence of `from` replaced by `to`
  std::string gpu_dir;              // per visible GPU, with {bus_id}, bound read-only
  std::string vendor;               // "" or a [vendor.NAME]: only that vendor's containers get it
  Origin origin;
};

// Named grants beyond devices and capabilities (e.g. partition management).
struct Extra {
  std::string name;
  Origin origin;
  std::vector<std::string> caps;         // names in discovery.partition_minors to allow
  bool all_partition_caps = false;       // every partition cap of the visible GPUs
  std::vector<std::string> bind_proc;    // proc paths bound read-only (under proc_root)
  std::vector<std::string> bind_dev;     // device directories bound (under dev_root)
};

// [sample.NAME] host: the size and MIG layout of the host one sample runs on.
struct SampleHost {
  unsigned gpus = 2;
  std::set<unsigned> mig;   // indices of the GPUs that have partitions
  unsigned partitions = 2;  // how many each of those has
};

// A request `graft policy check` runs every rule against, on a sample host,
// so a rule that fails at run time fails the check instead of containers.
struct SampleRequest {
  std::string name;
  Origin origin;
  std::vector<std::string> env;          // "NAME=VALUE"
  std::vector<std::string> annotations;  // "KEY=VALUE"
  bool privileged = false;
  std::optional<SampleHost> host;        // unset: the sample host (rules/sample_check.hpp)
};

struct Limits {
  std::uint64_t rule_instructions = 10'000'000;  // per evaluation, all rules together
  std::uint64_t rule_memory_bytes = 32u << 20;   // Lua heap cap per evaluation
  // Wall clock for plan, hook and apply from their start to the last
  // plugin destroyed; above the ldcache plugin's own 10 s, so its message wins.
  std::uint64_t deadline_ms = 30'000;
};

// The capability sets each CDI GPU device carries beside its GPU: the
// policy's [defaults] capabilities (what a consumer naming only the GPU
// expects), or the sets named, none for least privilege.
struct GpuCapabilities {
  bool defaults = true;              // "default"
  std::vector<SourcedString> sets;   // when not `defaults`; empty: the GPU alone
};

// [forward_compat]: an image built for a newer driver than the host's may
// ship that driver's user-space libraries in `dir`. When the plan injects the
// host's `library` and the image's copy (a regular file named
// <library>.<version>) has a newer major version than the host driver, the
// container's loader is told to prefer `dir`: an ld.so.conf.d entry at
// `conf_file` and the ld cache. The image's files are never mounted or read;
// the version comes from the file name.
struct ForwardCompat {
  bool enabled = false;
  SourcedString dir;       // container path of the image's directory
  SourcedString library;   // ld.so.cache key prefix that decides ("libvendor.so")
  std::string conf_file;   // container path of the ld.so.conf.d entry written
};

// [cdi]: what `graft cdi generate` writes by default.
struct CdiSettings {
  std::string kind;  // "vendor/class", checked by cdi::parse_kind; empty: --kind is required
  GpuCapabilities gpu_capabilities;
};

// [exclusive]: a GPU granted to a running container is refused to every
// other container until that one is gone (docs/policy.md "[exclusive]").
// The claims live in `state_dir`, one file per GPU or partition
// (claims/claim_store.hpp).
struct Exclusive {
  bool gpus = false;
  std::string state_dir = "/run/graft/claims";
};

// [runtime]: what graft-runtime (frontends/graft-runtime/) hands every command to, and how
// it edits a bundle on `create` (docs/runtimes.md).
struct RuntimeShim {
  enum class Mode {
    hook,         // insert graft's createRuntime hook; the hook applies the plan
    declarative,  // write the plan into config.json; hooks only for what must run inside
  };
  std::string path = "runc";  // a name looked up on PATH, or an absolute path
  Mode mode = Mode::hook;
};

// Where one dotted key was set last, as written there, and the value it
// replaced (an earlier file's). A table's entry has no value: its keys merge.
struct KeyOrigin {
  Origin origin;
  std::string value;           // the TOML text written at `origin`; "" for a table
  Origin replaced;             // empty: no earlier file set it
  std::string replaced_value;  // the TOML text written at `replaced`
  bool is_table() const { return value.empty(); }
};

// A later site file's value for a security-relevant key ([requests],
// [defaults], [limits], [plugins], [runtime], [audit]) over an earlier site
// file's: legitimate (a drop-in tightening a setting) or not (an include
// order undoing hardening), so it is reported, never silent.
struct SettingOverride {
  std::string key;  // dotted, e.g. "requests.unprivileged"
  KeyOrigin setting;
};

// [data_schema]: the declared shape of [data], one entry per top-level key.
// A type is "string", "integer", "float", "boolean", "table", "array", or
// "array of <type>s"; a "table" with `values` is a map whose every value
// has that type.
struct DataField {
  std::string type;
  std::string values;  // "table" only: the type of each value; "": anything
  bool required = false;
  std::string description;
  Origin origin;
};
struct DataSchema {
  std::map<std::string, DataField> fields;
  bool declared_by_site = false;    // some site-layer file has [data_schema]
  bool declared_by_vendor = false;  // some shipped-policy file has [data_schema]
  bool declared() const { return declared_by_site || declared_by_vendor; }
};

struct Policy {
  std::vector<std::string> files;  // every file loaded, in merge order
  // The vendor layer's files: the shipped policies and what they include.
  std::set<std::string> vendor_files;
  std::vector<SourcedString> drop_ins;  // every drop-in directory looked in (absolute), found or not
  HostRoots host;
  std::string plugin_dir;
  std::vector<std::string> plugins;
  std::map<std::string, nlohmann::json> plugin_config;  // [plugins.config.NAME], per plugin
  std::set<std::string> trusted_privileged;    // request channels: env, volume-mounts, annotations
  std::set<std::string> trusted_unprivileged;
  std::vector<SourcedString> default_capabilities;
  std::map<std::string, CapabilitySet> capabilities;
  std::map<std::string, DeviceClass> devices;
  std::map<std::string, Extra> extras;
  std::map<std::string, SampleRequest> samples;  // [sample.NAME]
  Discovery discovery;
  std::map<std::string, Vendor> vendors;  // [vendor.NAME]
  std::vector<std::string> vendor_order;  // their names as first defined: GPUs are indexed in this order
  ProcfsMask procfs;
  std::vector<SourcedString> rules;  // absolute Lua file paths, vendor rules first
  std::vector<SourcedString> rule_modules;  // absolute Lua module paths; require(<name>.lua's name)
  Limits limits;
  RuntimeShim runtime;
  Exclusive exclusive;
  std::string audit_log;             // JSON-lines file; empty = no audit log
  std::vector<std::string> audit_env;  // fnmatch patterns of env names the audit log records: [audit] env, else every vendor's audit_env
  CdiSettings cdi;
  ForwardCompat forward_compat;
  nlohmann::json data = nlohmann::json::object();  // free-form [data], read-only to rules
  DataSchema data_schema;  // [data_schema]; empty: [data] is unchecked
  // Where each key and table was set last, by dotted key
  // ("host.driver_root", "requests", "data.tenants.team-a"): `policy show`
  // prints it, `policy check` names it beside a host path it could not find.
  // A key absent here has graft's default.
  std::map<std::string, KeyOrigin> key_origins;
  // Security-relevant keys a later site file set over an earlier site
  // file's value, in merge order: `policy check` warns of each.
  std::vector<SettingOverride> overrides;
  // What this node allows beyond the vendors' places: read from the node's
  // allow file by the front end (boundary/node_allow.hpp), never from a
  // policy file. Empty where the node allows nothing more.
  Places node_places;
};

// The name require() takes for a declared rule module: the file name without ".lua".
std::string rule_module_name(const std::string& path);

// Where `include = ["name"]` looks for shipped policies: <dir>/<name>/<name>.toml.
struct PolicySearch {
  std::vector<std::string> policy_dirs;
};

Result<Policy> load_policy(const std::string& path, const PolicySearch& search);

}  // namespace graft
