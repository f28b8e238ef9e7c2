// SPDX-License-Identifier: Apache-2.0
// [capability.*], [device.*], [extra.*] and [sample.*]: named tables that merge key by
// key across files, so a drop-in can change one field of a vendor set and keep
// the rest. A name's origin is where it was first defined.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "policy/member_readers.hpp"
#include "policy/read_sections.hpp"

namespace graft::policy_parse {
namespace {

bool valid_name(std::string_view name) {
  auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
  };
  return !name.empty() && std::all_of(name.begin(), name.end(), allowed);
}

// A whole symlinks table replaces the earlier one, like an array would, so a
// site can also remove a vendor symlink.
Status read_symlinks(const TomlField& field, CapabilitySet& set, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  std::vector<SymlinkSpec> links;
  for (auto&& [link, node] : **table) {
    TomlField target_field = field.child(link.str(), node);
    auto target = as_string(target_field);
    if (!target) return target.error();
    links.push_back(SymlinkSpec{std::string(link.str()), *target, target_field.origin()});
  }
  set.symlinks = std::move(links);
  return ok_status();
}

constexpr KeyReader<CapabilitySet> kCapabilityReaders[] = {
    {"vendor", read_string<&CapabilitySet::vendor>},
    {"always", read_bool<&CapabilitySet::always>},
    {"lib32", read_bool<&CapabilitySet::lib32>},
    {"libraries", read_sourced_strings<&CapabilitySet::libraries>},
    {"binaries", read_sourced_strings<&CapabilitySet::binaries>},
    {"firmware", read_sourced_strings<&CapabilitySet::firmware>},
    {"ipc", read_sourced_strings<&CapabilitySet::ipc>},
    {"devices", read_sourced_strings<&CapabilitySet::devices>},
    {"config_files", read_sourced_strings<&CapabilitySet::config_files>},
    {"pulls", read_sourced_strings<&CapabilitySet::pulls>},
    {"symlinks", read_symlinks},
};

Status read_per(const TomlField& field, DeviceClass& device, const FileContext&) {
  static constexpr std::string_view kPer[] = {"fixed", "gpu", "partition", "minor", "gpu-sysfs"};
  auto value = as_string(field);
  if (!value) return value.error();
  if (*value == "fixed") {
    device.per = DeviceClass::Per::fixed;
  } else if (*value == "gpu") {
    device.per = DeviceClass::Per::gpu;
  } else if (*value == "partition") {
    device.per = DeviceClass::Per::partition;
  } else if (*value == "minor") {
    device.per = DeviceClass::Per::minor;
  } else if (*value == "gpu-sysfs") {
    device.per = DeviceClass::Per::gpu_sysfs;
  } else {
    return field.error(fmt::format("expected \"fixed\", \"gpu\", \"partition\", \"minor\" or \"gpu-sysfs\", got \"{}\"{}",
                                   *value, did_you_mean(*value, kPer)));
  }
  return ok_status();
}

constexpr KeyReader<DeviceClass> kDeviceReaders[] = {
    {"path", read_string<&DeviceClass::path>},
    {"per", read_per},
    {"major_name", read_string<&DeviceClass::major_name>},
    {"sys_path", read_string<&DeviceClass::sys_path>},
    {"dev_link", read_string<&DeviceClass::dev_link>},
    {"required", read_bool<&DeviceClass::required>},
    {"vendor", read_string<&DeviceClass::vendor>},
};

constexpr KeyReader<Extra> kExtraReaders[] = {
    {"caps", read_strings<&Extra::caps>},
    {"all_partition_caps", read_bool<&Extra::all_partition_caps>},
    {"bind_proc", read_strings<&Extra::bind_proc>},
    {"bind_dev", read_strings<&Extra::bind_dev>},
};

// A count in [minimum, maximum]: a sample host is small, so a typo'd 10000
// GPUs is an error, not a slow check.
Result<unsigned> read_sample_count(const TomlField& field, unsigned minimum, unsigned maximum) {
  auto value = as_integer(field);
  if (!value) return value.error();
  if (*value < minimum || *value > maximum)
    return field.error(fmt::format("expected {} to {}, got {}", minimum, maximum, *value));
  return static_cast<unsigned>(*value);
}

Status store_sample_count(const Result<unsigned>& count, unsigned& into) {
  if (!count) return count.error();
  into = *count;
  return ok_status();
}

// mig = true (every GPU) or [indices]; checked against gpus once the table is read.
Status read_sample_mig(const TomlField& field, SampleHost& host, bool& all) {
  if (const auto* flag = field.node.as_boolean()) {
    all = flag->get();
    return ok_status();
  }
  const auto* array = field.node.as_array();
  if (!array) return field.type_error("true, false or an array of GPU indices");
  for (std::size_t i = 0; i < array->size(); ++i) {
    auto index = read_sample_count(field.element(i, (*array)[i]), 0, 63);
    if (!index) return index.error();
    host.mig.insert(*index);
  }
  return ok_status();
}

// host = { gpus = 8, mig = [0, 1], partitions = 3 }: the host this sample runs on.
Status read_sample_host(const TomlField& field, SampleRequest& sample, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  SampleHost host;
  bool all = false;
  static constexpr std::string_view kKeys[] = {"gpus", "mig", "partitions"};
  for (auto&& [key, node] : **table) {
    TomlField entry = field.child(key.str(), node);
    Status read = ok_status();
    if (key.str() == "gpus") read = store_sample_count(read_sample_count(entry, 1, 64), host.gpus);
    else if (key.str() == "partitions") read = store_sample_count(read_sample_count(entry, 1, 7), host.partitions);
    else if (key.str() == "mig") read = read_sample_mig(entry, host, all);
    else return unknown_key(field, key, kKeys);
    if (!read) return read;
  }
  for (unsigned i = 0; all && i < host.gpus; ++i) host.mig.insert(i);
  if (!host.mig.empty() && *host.mig.rbegin() >= host.gpus)
    return field.error(fmt::format("mig names GPU {}, but the host has {} GPUs", *host.mig.rbegin(), host.gpus));
  sample.host = std::move(host);
  return ok_status();
}

constexpr KeyReader<SampleRequest> kSampleReaders[] = {
    {"env", read_strings<&SampleRequest::env>},
    {"annotations", read_strings<&SampleRequest::annotations>},
    {"privileged", read_bool<&SampleRequest::privileged>},
    {"host", read_sample_host},
};

template <typename T, std::size_t N>
Status read_named(const TomlField& field, std::map<std::string, T>& into,
                  const KeyReader<T> (&readers)[N], const FileContext& file) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    TomlField entry = field.child(key.str(), node);
    if (!valid_name(key.str())) {
      return error_at(origin_of(key.source(), file.path), entry.key,
                      "a name may only use letters, digits, '-' and '_'");
    }
    if (!node.is_table()) return entry.type_error("a table");
    auto [it, created] = into.try_emplace(std::string(key.str()));
    if (created) {
      it->second.name = key.str();
      it->second.origin = entry.origin();
    }
    auto status = read_table(entry, readers, it->second, file);
    if (!status) return status;
  }
  return ok_status();
}

}  // namespace

Status read_capabilities(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_named(field, policy.capabilities, kCapabilityReaders, file);
}

Status read_devices(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_named(field, policy.devices, kDeviceReaders, file);
}

Status read_extras(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_named(field, policy.extras, kExtraReaders, file);
}

Status read_samples(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_named(field, policy.samples, kSampleReaders, file);
}

}  // namespace graft::policy_parse
