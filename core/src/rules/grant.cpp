// SPDX-License-Identifier: Apache-2.0
// The checks and bookkeeping behind each grant method.
#include "rules/grant.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "graft/base/did_you_mean.hpp"

namespace graft::rules {

namespace {

bool has_name(const std::vector<NamedGrant>& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(), [&](const NamedGrant& g) { return g.name == name; });
}

// Adds once; the first reason is the one kept.
void add_named(std::vector<NamedGrant>& list, std::string_view name, const Reason& reason) {
  if (!has_name(list, name)) list.push_back(NamedGrant{std::string(name), reason});
}

// Removes and records a denial only when the name was granted.
void drop_named(std::vector<NamedGrant>& list, std::vector<Denial>& denials, std::string_view kind,
                std::string_view name, const Reason& reason) {
  auto it = std::find_if(list.begin(), list.end(), [&](const NamedGrant& g) { return g.name == name; });
  if (it == list.end()) return;
  list.erase(it);
  denials.push_back(Denial{fmt::format("{} {}", kind, name), reason});
}

// "unknown capability 'compue' (not defined by the policy); did you mean 'compute'?"
template <typename Map>
Error unknown_name(std::string_view kind, std::string_view name, const Map& defined) {
  std::vector<std::string_view> names;
  for (const auto& [key, _] : defined) names.push_back(key);
  return make_error("unknown {} '{}' (not defined by the policy){}", kind, name, did_you_mean(name, names));
}

}  // namespace

Status Grant::check_vendor(const std::string& vendor) const {
  if (vendor.empty() || policy_.vendors.contains(vendor)) return ok_status();
  return unknown_name("vendor", vendor, policy_.vendors);
}

Status Grant::inject(const Reason& reason, const std::string& vendor) {
  if (auto status = check_vendor(vendor); !status) return status;
  if (!vendor.empty()) intent_.vendors.insert(vendor);
  if (intent_.inject) return ok_status();
  intent_.inject = true;
  intent_.inject_reason = reason;
  return ok_status();
}

// A vendor's skip takes back only that vendor's injection: another vendor's
// rule may have made it a GPU container of its own.
Status Grant::skip(const Reason& reason, const std::string& vendor) {
  if (auto status = check_vendor(vendor); !status) return status;
  if (!vendor.empty() && intent_.inject && (intent_.vendors.erase(vendor) == 0 || !intent_.vendors.empty()))
    return ok_status();
  intent_.vendors.clear();
  intent_.inject = false;
  intent_.inject_reason = reason;
  return ok_status();
}

bool Grant::injecting(const std::string& vendor) const {
  if (!intent_.inject) return false;
  return vendor.empty() || intent_.vendors.empty() || intent_.vendors.contains(vendor);
}

Status Grant::check_gpu(std::int64_t gpu) const {
  if (gpu < 0 || static_cast<std::uint64_t>(gpu) >= inventory_.gpus.size())
    return make_error("no GPU with index {} (the host has {})", gpu, inventory_.gpus.size());
  return ok_status();
}

void Grant::add_device_grant(DeviceGrant grant) {
  auto same = [&](const DeviceGrant& d) { return d.gpu == grant.gpu && d.partition == grant.partition; };
  if (std::any_of(intent_.devices.begin(), intent_.devices.end(), same)) return;
  // check_gpu has vetted the index; the GPU's vendor is the policy's own.
  (void)inject(grant.reason, inventory_.gpus[grant.gpu].vendor);
  intent_.devices.push_back(std::move(grant));
}

Status Grant::add_device(std::int64_t gpu, const Reason& reason) {
  if (auto status = check_gpu(gpu); !status.ok()) return status;
  add_device_grant(DeviceGrant{static_cast<unsigned>(gpu), std::nullopt, reason});
  return ok_status();
}

Status Grant::add_partition(std::int64_t gpu, std::int64_t partition, const Reason& reason) {
  if (auto status = check_gpu(gpu); !status.ok()) return status;
  const auto& partitions = inventory_.gpus[static_cast<std::size_t>(gpu)].partitions;
  bool known = std::any_of(partitions.begin(), partitions.end(), [&](const Partition& p) {
    return static_cast<std::int64_t>(p.index) == partition;
  });
  if (!known) return make_error("GPU {} has no partition {}", gpu, partition);
  add_device_grant(DeviceGrant{static_cast<unsigned>(gpu), static_cast<unsigned>(partition), reason});
  return ok_status();
}

void Grant::remove_gpu(unsigned gpu, const Reason& reason) {
  auto& devices = intent_.devices;
  auto removed = std::remove_if(devices.begin(), devices.end(), [&](const DeviceGrant& d) { return d.gpu == gpu; });
  if (removed == devices.end()) return;
  devices.erase(removed, devices.end());
  intent_.denials.push_back(Denial{fmt::format("GPU {}", gpu), reason});
}

Status Grant::remove_device(std::int64_t gpu, const Reason& reason, bool allow_none) {
  if (auto status = check_gpu(gpu); !status.ok()) return status;
  bool had_devices = !intent_.devices.empty();
  remove_gpu(static_cast<unsigned>(gpu), reason);
  if (had_devices && !allow_none) refuse_if_none_left(reason, "the last granted GPU was removed");
  return ok_status();
}

void Grant::restrict_devices(std::span<const unsigned char> keep, const Reason& reason, bool allow_none) {
  bool had_devices = !intent_.devices.empty();
  for (std::size_t gpu = 0; gpu < inventory_.gpus.size(); ++gpu) {
    if (gpu < keep.size() && keep[gpu] != 0) continue;
    remove_gpu(static_cast<unsigned>(gpu), reason);
  }
  if (had_devices && !allow_none) refuse_if_none_left(reason, "none of the granted GPUs is in the list");
}

// The refusal says what happened and why it is one; how a rule allows a
// GPU-less container ({allow_none = true}) is docs/rules.md's business, not
// the container's or the audit log's.
void Grant::refuse_if_none_left(const Reason& reason, std::string_view what) {
  if (!intent_.devices.empty() || !intent_.inject) return;
  deny(Reason{fmt::format("{}: {}, so the container would start with no GPU", reason.text, what), reason.origin,
              reason.rule});
}

std::optional<unsigned> Grant::gpu_by_uuid(std::string_view uuid) const noexcept {
  // Positions, not Gpu::index: the inventory keeps GPUs in index order.
  for (std::size_t i = 0; i < inventory_.gpus.size(); ++i)
    if (inventory_.gpus[i].uuid == uuid) return static_cast<unsigned>(i);
  return std::nullopt;
}

Status Grant::add_capability(std::string_view name, const Reason& reason) {
  if (!policy_.capabilities.contains(std::string(name)))
    return unknown_name("capability", name, policy_.capabilities);
  add_named(intent_.capabilities, name, reason);
  return ok_status();
}

Status Grant::drop_capability(std::string_view name, const Reason& reason) {
  if (!policy_.capabilities.contains(std::string(name)))
    return unknown_name("capability", name, policy_.capabilities);
  drop_named(intent_.capabilities, intent_.denials, "capability", name, reason);
  return ok_status();
}

Status Grant::add_extra(std::string_view name, const Reason& reason) {
  if (!policy_.extras.contains(std::string(name)))
    return unknown_name("extra", name, policy_.extras);
  add_named(intent_.extras, name, reason);
  return ok_status();
}

Status Grant::drop_extra(std::string_view name, const Reason& reason) {
  if (!policy_.extras.contains(std::string(name)))
    return unknown_name("extra", name, policy_.extras);
  drop_named(intent_.extras, intent_.denials, "extra", name, reason);
  return ok_status();
}

namespace {

// The number add_node needs for a class: none, a minor, or a GPU index.
Status check_node_number(const DeviceClass& device_class, std::optional<std::int64_t> number, std::size_t gpus) {
  const std::string& name = device_class.name;
  switch (device_class.per) {
    case DeviceClass::Per::gpu:
    case DeviceClass::Per::partition:
      return make_error("device class '{}' is per GPU or partition: grant its nodes with add_device or add_partition",
                        name);
    case DeviceClass::Per::fixed:
      if (number) return make_error("device class '{}' has no numbered nodes: grant it without a number", name);
      return ok_status();
    case DeviceClass::Per::minor:
      if (!number) return make_error("device class '{}' is per minor: name the node's minor", name);
      if (*number < 0 || *number >= (std::int64_t{1} << 20))
        return make_error("minor {} of device class '{}' is out of range (0 to 1048575)", *number, name);
      return ok_status();
    case DeviceClass::Per::gpu_sysfs:
      if (!number) return make_error("device class '{}' is per GPU: name the GPU's index", name);
      if (*number < 0 || static_cast<std::uint64_t>(*number) >= gpus)
        return make_error("no GPU with index {} (the host has {})", *number, gpus);
      return ok_status();
  }
  return ok_status();
}

}  // namespace

Status Grant::add_node(std::string_view device_class, std::optional<std::int64_t> number, const Reason& reason) {
  auto found = policy_.devices.find(std::string(device_class));
  if (found == policy_.devices.end()) return unknown_name("device class", device_class, policy_.devices);
  if (auto status = check_node_number(found->second, number, inventory_.gpus.size()); !status) return status;
  NodeGrant grant{std::string(device_class), {}, reason};
  if (number) grant.number = static_cast<unsigned>(*number);
  auto same = [&](const NodeGrant& g) { return g.device_class == grant.device_class && g.number == grant.number; };
  if (std::none_of(intent_.nodes.begin(), intent_.nodes.end(), same)) intent_.nodes.push_back(std::move(grant));
  return ok_status();
}

Status Grant::set_env(std::string_view name, std::string_view value, const Reason& reason) {
  if (name.empty() || name.find_first_of(std::string_view("=\0", 2)) != std::string_view::npos)
    return make_error("invalid environment variable name '{}'", name);
  if (value.find('\0') != std::string_view::npos)
    return make_error("value of environment variable {} contains a NUL byte", name);
  for (EnvGrant& env : intent_.env) {
    if (env.name != name) continue;
    env.value = std::string(value);
    env.reason = reason;
    return ok_status();
  }
  intent_.env.push_back(EnvGrant{std::string(name), std::string(value), reason});
  return ok_status();
}

// Paths are container paths the apply step resolves inside the rootfs; they
// must still be plain absolute paths so the plan says exactly where they land.
Status Grant::write_file(std::string_view path, std::string_view content, const Reason& reason) {
  constexpr std::size_t max_content = 64 * 1024;
  if (!path.starts_with('/') || path.find("/../") != std::string_view::npos ||
      path.ends_with("/..") || path.ends_with('/') || path.find('\0') != std::string_view::npos)
    return make_error("write_file: '{}' is not an absolute file path without '..'", path);
  if (content.size() > max_content)
    return make_error("write_file: content for {} is {} bytes, more than {}", path, content.size(),
                      max_content);
  for (FileGrant& file : intent_.files) {
    if (file.path != path) continue;
    file.content = std::string(content);
    file.reason = reason;
    return ok_status();
  }
  intent_.files.push_back(FileGrant{std::string(path), std::string(content), reason});
  return ok_status();
}

void Grant::note(std::string_view text) { intent_.request_notes.emplace_back(text); }

void Grant::deny(const Reason& reason) {
  if (!intent_.refusal) intent_.refusal = reason;
}

}  // namespace graft::rules
