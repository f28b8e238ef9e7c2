// SPDX-License-Identifier: Apache-2.0
// [discovery] (where the host's driver facts are read) and [procfs] (what a
// container's driver procfs directory shows).
#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "policy/member_readers.hpp"
#include "policy/read_sections.hpp"
#include "policy/version_regex.hpp"

namespace graft::policy_parse {
namespace {

// Checked here rather than at discovery time so a bad pattern is a policy
// error with a position, not a failure on every container start.
Status read_version_pattern(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  try {
    auto pattern =
        std::make_shared<const VersionRegex>(VersionRegex{VersionRegex::Pattern(*value, std::regex::ECMAScript)});
    if (pattern->pattern.mark_count() < 1) return field.error("needs a capture group for the version");
    discovery.version_regex = std::move(pattern);
  } catch (const std::regex_error& e) {
    return field.error(fmt::format("not a valid regular expression: {}", e.what()));
  }
  discovery.version_pattern = std::move(*value);
  return ok_status();
}

// Merged key by key: a site may rename one field and keep the others.
Status read_gpu_fields(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  static constexpr std::string_view kKnown[] = {"uuid", "minor", "bus_id", "bus_domain", "model"};
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    if (std::find(std::begin(kKnown), std::end(kKnown), key.str()) == std::end(kKnown)) {
      return unknown_key(field, key, kKnown);
    }
    auto value = as_string(field.child(key.str(), node));
    if (!value) return value.error();
    discovery.gpu_fields[std::string(key.str())] = std::move(*value);
  }
  return ok_status();
}

constexpr std::string_view kRecordFormats[] = {"colon", "space"};

Status read_gpu_record_format(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (*value == kRecordFormats[0]) {
    discovery.gpu_record_format = GpuDiscovery::RecordFormat::colon;
  } else if (*value == kRecordFormats[1]) {
    discovery.gpu_record_format = GpuDiscovery::RecordFormat::space;
  } else {
    return field.error(fmt::format("unknown record format '{}' (colon or space){}", *value,
                                   did_you_mean(*value, kRecordFormats)));
  }
  return ok_status();
}

// Merged key by key, like gpu_fields; the keys are the record's own.
Status read_gpu_skip(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    auto value = as_string(field.child(key.str(), node));
    if (!value) return value.error();
    discovery.gpu_skip[std::string(key.str())] = std::move(*value);
  }
  return ok_status();
}

constexpr std::string_view kTransformedFields[] = {"uuid", "bus_id"};
constexpr std::string_view kTransforms[] = {"pci-location-id", "hex"};

Status read_gpu_field_transforms(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    if (std::find(std::begin(kTransformedFields), std::end(kTransformedFields), key.str()) ==
        std::end(kTransformedFields))
      return unknown_key(field, key, kTransformedFields);
    auto child = field.child(key.str(), node);
    auto value = as_string(child);
    if (!value) return value.error();
    if (*value == kTransforms[0]) {
      discovery.gpu_field_transforms[std::string(key.str())] = GpuDiscovery::FieldTransform::pci_location_id;
    } else if (*value == kTransforms[1]) {
      discovery.gpu_field_transforms[std::string(key.str())] = GpuDiscovery::FieldTransform::hex;
    } else {
      return child.error(fmt::format("unknown field transform '{}' (pci-location-id or hex){}", *value,
                                     did_you_mean(*value, kTransforms)));
    }
  }
  return ok_status();
}

constexpr std::string_view kLibraryVersions[] = {"driver", "any"};

Status read_library_version(const TomlField& field, GpuDiscovery& discovery, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (*value != kLibraryVersions[0] && *value != kLibraryVersions[1])
    return field.error(fmt::format("unknown library version '{}' (driver or any){}", *value,
                                   did_you_mean(*value, kLibraryVersions)));
  discovery.library_version = *value == kLibraryVersions[1] ? GpuDiscovery::LibraryVersion::any
                                                            : GpuDiscovery::LibraryVersion::driver;
  return ok_status();
}

constexpr std::string_view kLibrarySearches[] = {"cache-then-dirs", "dirs-only"};

Status read_library_search(const TomlField& field, Discovery& discovery, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (*value == kLibrarySearches[0]) {
    discovery.library_search = Discovery::LibrarySearch::cache_then_dirs;
  } else if (*value == kLibrarySearches[1]) {
    discovery.library_search = Discovery::LibrarySearch::dirs_only;
  } else {
    return field.error(fmt::format("unknown library search '{}' (cache-then-dirs or dirs-only){}",
                                   *value, did_you_mean(*value, kLibrarySearches)));
  }
  discovery.library_search_origin = field.origin();
  return ok_status();
}

// Absolute, as every discovery path: they are read under driver_root.
Status read_library_dirs(const TomlField& field, Discovery& discovery, const FileContext&) {
  auto value = as_string_list(field);
  if (!value) return value.error();
  for (const auto& dir : *value)
    if (!dir.starts_with('/'))
      return field.error(fmt::format("expected absolute directories (read under driver_root), got '{}'", dir));
  discovery.library_dirs = std::move(*value);
  return ok_status();
}

// A host path, relative to the policy file; "" turns partition UUIDs off.
Status read_partition_uuid_file(const TomlField& field, GpuDiscovery& discovery, const FileContext& file) {
  auto value = as_string(field);
  if (!value) return value.error();
  discovery.partition_uuid_file = value->empty() ? "" : resolve_path(file, *value);
  return ok_status();
}

// The keys of one GPU source: [vendor.NAME], or [discovery]'s unnamed one.
constexpr KeyReader<GpuDiscovery> kGpuDiscoveryReaders[] = {
    {"version_file", read_string<&GpuDiscovery::version_file>},
    {"version_pattern", read_version_pattern},
    {"version_required", read_bool<&GpuDiscovery::version_required>},
    {"gpu_glob", read_string<&GpuDiscovery::gpu_glob>},
    {"gpu_record_format", read_gpu_record_format},
    {"gpu_fields", read_gpu_fields},
    {"gpu_skip", read_gpu_skip},
    {"gpu_field_transforms", read_gpu_field_transforms},
    {"partition_minors", read_string<&GpuDiscovery::partition_minors>},
    {"partition_dir", read_string<&GpuDiscovery::partition_dir>},
    {"partition_gi_key", read_string<&GpuDiscovery::partition_gi_key>},
    {"partition_ci_key", read_string<&GpuDiscovery::partition_ci_key>},
    {"partition_uuid_file", read_partition_uuid_file},
    {"library_version", read_library_version},
};

// The host-wide keys of [discovery].
constexpr KeyReader<Discovery> kHostDiscoveryReaders[] = {
    {"ldcache", read_string<&Discovery::ldcache>},
    {"library_search", read_library_search},
    {"library_dirs", read_library_dirs},
    {"binary_dirs", read_strings<&Discovery::binary_dirs>},
    {"firmware_dir", read_string<&Discovery::firmware_dir>},
};

// A table holding a GPU source's keys beside keys of its own (`Rest`):
// [discovery] (host-wide keys) and [vendor.NAME] (the vendor's).
template <typename Rest, std::size_t N>
Status read_with_gpu_keys(const TomlField& field, GpuDiscovery& gpus, const KeyReader<Rest> (&rest_readers)[N],
                          Rest& rest, const FileContext& file) {
  return read_table(field, std::span<const KeyReader<GpuDiscovery>>(kGpuDiscoveryReaders), gpus,
                    std::span<const KeyReader<Rest>>(rest_readers), rest, file);
}

Status read_cdi_kind_of(const TomlField& field, Vendor& vendor, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (!value->empty() && value->find('/') == std::string::npos)
    return field.error(fmt::format("expected a CDI kind \"vendor/class\", got '{}'", *value));
  vendor.cdi_kind = std::move(*value);
  return ok_status();
}

constexpr KeyReader<Vendor> kVendorReaders[] = {
    {"cdi_kind", read_cdi_kind_of},
    {"audit_env", read_strings<&Vendor::audit_env>},
    {"places", read_vendor_places},
};

constexpr KeyReader<ProcfsMask::Rewrite> kRewriteReaders[] = {
    {"file", read_string<&ProcfsMask::Rewrite::file>},
    {"from", read_string<&ProcfsMask::Rewrite::from>},
    {"to", read_string<&ProcfsMask::Rewrite::to>},
};

Status read_rewrite(const TomlField& field, ProcfsMask::Rewrite& rewrite, const FileContext& file) {
  auto status = read_table(field, kRewriteReaders, rewrite, file);
  if (!status) return status;
  const auto& table = *field.node.as_table();
  for (auto key : {"file", "from", "to"}) {
    if (!table.contains(key)) return field.error(fmt::format("missing key '{}'", key));
  }
  if (rewrite.from.empty()) return field.error("'from' must not be empty");
  return ok_status();
}

// Rewrites replace as a whole, like any array.
Status read_rewrites(const TomlField& field, ProcfsMask& procfs, const FileContext& file) {
  const auto* array = field.node.as_array();
  if (!array) return field.type_error("an array of tables");
  std::vector<ProcfsMask::Rewrite> rewrites;
  for (std::size_t i = 0; i < array->size(); ++i) {
    ProcfsMask::Rewrite rewrite;
    auto status = read_rewrite(field.element(i, (*array)[i]), rewrite, file);
    if (!status) return status;
    rewrites.push_back(std::move(rewrite));
  }
  procfs.rewrites = std::move(rewrites);
  return ok_status();
}

constexpr KeyReader<ProcfsMask> kProcfsReaders[] = {
    {"path", read_string<&ProcfsMask::path>},
    {"copy", read_strings<&ProcfsMask::copy>},
    {"gpu_dir", read_string<&ProcfsMask::gpu_dir>},
    {"vendor", read_string<&ProcfsMask::vendor>},
    {"rewrite", read_rewrites},
};

// Lower-case: a vendor name is also what rules compare gpu.vendor with.
bool valid_vendor_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

std::vector<std::string_view> gpu_discovery_keys() {
  std::vector<std::string_view> keys;
  for (const auto& reader : kGpuDiscoveryReaders) keys.push_back(reader.key);
  return keys;
}

Status read_discovery(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_with_gpu_keys(field, policy.discovery, kHostDiscoveryReaders, policy.discovery, file);
}

// Named tables that merge key by key, like [capability.NAME]; the order a
// vendor is first defined in (include order) is the order its GPUs are indexed in.
Status read_vendors(const TomlField& field, Policy& policy, const FileContext& file) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (auto&& [key, node] : **table) {
    TomlField entry = field.child(key.str(), node);
    if (!valid_vendor_name(key.str())) return entry.error("a vendor name may only use lower-case letters, digits and '-'");
    if (!node.is_table()) return entry.type_error("a table");
    auto [it, created] = policy.vendors.try_emplace(std::string(key.str()));
    if (created) {
      it->second.name = key.str();
      it->second.origin = entry.origin();
      policy.vendor_order.push_back(it->second.name);
    }
    if (auto status = read_with_gpu_keys(entry, it->second.discovery, kVendorReaders, it->second, file); !status)
      return status;
  }
  return ok_status();
}

Status read_procfs(const TomlField& field, Policy& policy, const FileContext& file) {
  if (policy.procfs.origin.empty()) policy.procfs.origin = field.origin();
  return read_table(field, kProcfsReaders, policy.procfs, file);
}

}  // namespace graft::policy_parse
