// SPDX-License-Identifier: Apache-2.0
#include "render/policy_render.hpp"

#include "plan/capability_items.hpp"
#include "render/explain_render.hpp"

namespace graft {
namespace {

using ojson = nlohmann::ordered_json;

std::string origin_text(const Origin& origin) { return origin.full(); }

ojson sourced_json(const SourcedString& entry) {
  return {{"value", entry.value}, {"origin", origin_text(entry.origin)}};
}

ojson sourced_list_json(const std::vector<SourcedString>& entries) {
  ojson out = ojson::array();
  for (const auto& entry : entries) out.push_back(sourced_json(entry));
  return out;
}

ojson capability_item_json(const CapabilityItem& item) {
  ojson out = {{"value", item.value}, {"origin", origin_text(item.origin)}};
  if (!item.via.empty()) out["via"] = item.via;
  return out;
}

// A set's items as the planner expands a grant of it alone: its own, then
// what its `pulls` bring (marked "via"); `always` sets are not mixed in.
ojson capability_json(const CapabilitySet& set, const Policy& policy) {
  Intent only;
  only.capabilities.push_back(NamedGrant{set.name, {}});
  CapabilityItems items = expand_capabilities(only, policy);
  ojson out = {{"origin", origin_text(set.origin)}, {"always", set.always}, {"lib32", set.lib32}};
  if (!set.vendor.empty()) out["vendor"] = set.vendor;
  const std::pair<const char*, const std::vector<CapabilityItem>*> fields[] = {
      {"libraries", &items.libraries}, {"binaries", &items.binaries},     {"firmware", &items.firmware},
      {"ipc", &items.ipc},             {"devices", &items.devices},       {"config_files", &items.config_files}};
  for (const auto& [name, list] : fields) {
    ojson entries = ojson::array();
    for (const auto& item : *list)
      if (item.capability == set.name) entries.push_back(capability_item_json(item));
    out[name] = entries;
  }
  ojson links = ojson::array();
  for (std::size_t i = 0; i < items.symlinks.size(); ++i)
    if (items.symlink_sets[i] == set.name)
      links.push_back({{"link", items.symlinks[i].link},
                       {"target", items.symlinks[i].target},
                       {"origin", origin_text(items.symlinks[i].origin)}});
  out["symlinks"] = links;
  out["pulls"] = sourced_list_json(set.pulls);
  return out;
}

const char* per_name(DeviceClass::Per per) {
  switch (per) {
    case DeviceClass::Per::fixed: return "fixed";
    case DeviceClass::Per::gpu: return "gpu";
    case DeviceClass::Per::partition: return "partition";
    case DeviceClass::Per::minor: return "minor";
    case DeviceClass::Per::gpu_sysfs: return "gpu-sysfs";
  }
  return "fixed";
}

ojson devices_json(const Policy& policy) {
  ojson out = ojson::object();
  for (const auto& [name, device] : policy.devices) {
    out[name] = {{"origin", origin_text(device.origin)}, {"path", device.path}, {"per", per_name(device.per)},
                 {"major_name", device.major_name}, {"required", device.required}};
    if (!device.sys_path.empty()) out[name]["sys_path"] = device.sys_path;
    if (!device.dev_link.empty()) out[name]["dev_link"] = device.dev_link;
    if (!device.vendor.empty()) out[name]["vendor"] = device.vendor;
  }
  return out;
}

ojson extras_json(const Policy& policy) {
  ojson out = ojson::object();
  for (const auto& [name, extra] : policy.extras)
    out[name] = {{"origin", origin_text(extra.origin)}, {"caps", extra.caps},
                 {"all_partition_caps", extra.all_partition_caps}, {"bind_proc", extra.bind_proc},
                 {"bind_dev", extra.bind_dev}};
  return out;
}

ojson samples_json(const Policy& policy) {
  ojson out = ojson::object();
  for (const auto& [name, sample] : policy.samples)
    out[name] = {{"origin", origin_text(sample.origin)}, {"env", sample.env},
                 {"annotations", sample.annotations}, {"privileged", sample.privileged}};
  return out;
}

ojson transforms_json(const GpuDiscovery& d) {
  ojson out = ojson::object();
  for (const auto& [field, transform] : d.gpu_field_transforms)
    out[field] = transform == GpuDiscovery::FieldTransform::hex ? "hex" : "pci-location-id";
  return out;
}

// The GPU keys [discovery] and [vendor.NAME] share.
ojson gpu_discovery_json(const GpuDiscovery& d) {
  return {{"version_file", d.version_file},         {"version_pattern", d.version_pattern},
          {"gpu_glob", d.gpu_glob},                 {"partition_minors", d.partition_minors},
          {"partition_dir", d.partition_dir},       {"partition_gi_key", d.partition_gi_key},
          {"partition_ci_key", d.partition_ci_key},
          {"partition_uuid_file", d.partition_uuid_file}, {"gpu_fields", ojson(d.gpu_fields)},
          {"version_required", d.version_required},
          {"library_version", d.library_version == GpuDiscovery::LibraryVersion::any ? "any" : "driver"},
          {"gpu_record_format", d.gpu_record_format == GpuDiscovery::RecordFormat::space ? "space" : "colon"},
          {"gpu_skip", ojson(d.gpu_skip)},         {"gpu_field_transforms", transforms_json(d)}};
}

ojson discovery_json(const Discovery& d) {
  ojson out = gpu_discovery_json(d);
  out["ldcache"] = d.ldcache;
  out["library_search"] = d.library_search == Discovery::LibrarySearch::dirs_only ? "dirs-only" : "cache-then-dirs";
  out["library_dirs"] = d.library_dirs;
  out["binary_dirs"] = d.binary_dirs;
  out["firmware_dir"] = d.firmware_dir;
  return out;
}

// In the order their GPUs are numbered.
ojson vendors_json(const Policy& policy) {
  ojson out = ojson::object();
  for (const auto& name : policy.vendor_order) {
    const Vendor& vendor = policy.vendors.at(name);
    ojson entry = gpu_discovery_json(vendor.discovery);
    entry["origin"] = origin_text(vendor.origin);
    entry["cdi_kind"] = vendor.cdi_kind;
    entry["audit_env"] = vendor.audit_env;
    out[name] = std::move(entry);
  }
  return out;
}

ojson forward_compat_json(const ForwardCompat& compat) {
  ojson out = {{"enabled", compat.enabled},
               {"dir", compat.dir.value},
               {"library", compat.library.value},
               {"conf_file", compat.conf_file}};
  if (!compat.dir.origin.empty()) out["origin"] = origin_text(compat.dir.origin);
  return out;
}

ojson procfs_json(const ProcfsMask& procfs) {
  ojson rewrites = ojson::array();
  for (const auto& rewrite : procfs.rewrites)
    rewrites.push_back({{"file", rewrite.file}, {"from", rewrite.from}, {"to", rewrite.to}});
  ojson out = {{"path", procfs.path}, {"copy", procfs.copy}, {"gpu_dir", procfs.gpu_dir}, {"rewrite", rewrites}};
  if (!procfs.origin.empty()) out["origin"] = origin_text(procfs.origin);
  if (!procfs.vendor.empty()) out["vendor"] = procfs.vendor;
  return out;
}

ojson registered_rules_json(const std::vector<RuleActivity>& rules) {
  ojson out = ojson::array();
  for (const auto& rule : in_run_order(rules))
    out.push_back({{"name", rule.name},
                   {"phase", std::string(rules::phase_name(rule.phase))},
                   {"origin", origin_text(rule.origin)}});
  return out;
}

ojson rule_modules_json(const Policy& policy) {
  ojson out = ojson::array();
  for (const auto& module : policy.rule_modules) {
    ojson entry = sourced_json(module);
    entry["require"] = rule_module_name(module.value);
    out.push_back(entry);
  }
  return out;
}

ojson data_schema_json(const DataSchema& schema) {
  ojson out = ojson::object();
  for (const auto& [name, field] : schema.fields) {
    out[name] = {{"origin", origin_text(field.origin)}, {"type", field.type}, {"required", field.required}};
    if (!field.values.empty()) out[name]["values"] = field.values;
    if (!field.description.empty()) out[name]["description"] = field.description;
  }
  return out;
}

// The runtime, exclusive, audit and cdi sections and [data]: plain values.
void add_settings(const Policy& policy, ojson& out) {
  out["limits"] = {{"rule_instructions", policy.limits.rule_instructions},
                   {"rule_memory", policy.limits.rule_memory_bytes},
                   {"deadline_ms", policy.limits.deadline_ms}};
  out["runtime"] = {{"path", policy.runtime.path},
                    {"mode", policy.runtime.mode == RuntimeShim::Mode::hook ? "hook" : "declarative"}};
  out["exclusive"] = {{"gpus", policy.exclusive.gpus}, {"state_dir", policy.exclusive.state_dir}};
  out["audit"] = {{"log", policy.audit_log}, {"env", policy.audit_env}};
  const GpuCapabilities& gpu = policy.cdi.gpu_capabilities;
  out["cdi"] = {{"kind", policy.cdi.kind},
                {"gpu_capabilities", gpu.defaults ? ojson("default") : sourced_list_json(gpu.sets)}};
  out["data"] = ojson::parse(policy.data.dump());
}

ojson origins_json(const Policy& policy) {
  ojson out = ojson::object();
  for (const auto& [key, entry] : policy.key_origins) out[key] = key_origin_json(entry);
  return out;
}

}  // namespace

ojson key_origin_json(const KeyOrigin& entry) {
  ojson out = {{"origin", origin_text(entry.origin)}};
  if (!entry.is_table()) out["value"] = entry.value;
  if (entry.replaced.empty()) return out;
  ojson earlier = {{"origin", origin_text(entry.replaced)}};
  if (!entry.is_table()) earlier["value"] = entry.replaced_value;
  out[entry.is_table() ? "merged_over" : "overrode"] = earlier;
  return out;
}

std::string key_origin_text(const KeyOrigin& entry) {
  std::string text = origin_text(entry.origin);
  if (entry.replaced.empty()) return text;
  if (entry.is_table()) return text + ", merged over " + origin_text(entry.replaced);
  return text + ", over " + entry.replaced_value + " from " + origin_text(entry.replaced);
}

std::string override_text(const SettingOverride& found) {
  const KeyOrigin& setting = found.setting;
  return found.key + " = " + setting.value + " at " + origin_text(setting.origin) + " overrides " +
         setting.replaced_value + " from " + origin_text(setting.replaced) + " (an earlier site file)";
}

ojson render_policy_json(const Policy& policy, const std::vector<RuleActivity>& rules) {
  ojson out = {{"schema", policy_show_schema_id}, {"files", policy.files}};
  out["drop_ins"] = sourced_list_json(policy.drop_ins);
  out["rules"] = sourced_list_json(policy.rules);
  out["rule_modules"] = rule_modules_json(policy);
  out["registered_rules"] = registered_rules_json(rules);
  const HostRoots& host = policy.host;
  out["host"] = {{"driver_root", host.driver_root}, {"dev_root", host.dev_root}, {"proc_root", host.proc_root},
                 {"sys_root", host.sys_root},       {"run_root", host.run_root}};
  ojson config = ojson::object();
  for (const auto& [name, value] : policy.plugin_config) config[name] = ojson::parse(value.dump());
  out["plugins"] = {{"dir", policy.plugin_dir}, {"enable", policy.plugins}, {"config", config}};
  out["requests"] = {{"privileged", policy.trusted_privileged}, {"unprivileged", policy.trusted_unprivileged}};
  out["defaults"] = {{"capabilities", sourced_list_json(policy.default_capabilities)}};
  ojson capabilities = ojson::object();
  for (const auto& [name, set] : policy.capabilities) capabilities[name] = capability_json(set, policy);
  out["capability"] = capabilities;
  out["device"] = devices_json(policy);
  out["extra"] = extras_json(policy);
  out["sample"] = samples_json(policy);
  out["discovery"] = discovery_json(policy.discovery);
  out["vendors"] = vendors_json(policy);
  out["procfs"] = procfs_json(policy.procfs);
  out["forward_compat"] = forward_compat_json(policy.forward_compat);
  add_settings(policy, out);
  out["data_schema"] = data_schema_json(policy.data_schema);
  out["origins"] = origins_json(policy);
  return out;
}

}  // namespace graft
