// SPDX-License-Identifier: Apache-2.0
// Cross-reference checks on the merged policy. Each error points at the string
// that names the missing thing, wherever in the include tree it was written.
#include "policy/validate.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "policy/key_reader.hpp"
#include "policy/toml_field.hpp"
#include "policy/vendors.hpp"

namespace graft::policy_parse {
namespace {

// The CapabilitySet fields a pull may borrow: the plain lists.
constexpr std::string_view kPullableFields[] = {"libraries", "binaries", "firmware",
                                                "ipc",       "devices",  "config_files"};

template <typename T>
std::vector<std::string_view> names_of(const std::map<std::string, T>& map) {
  std::vector<std::string_view> names;
  for (const auto& [name, value] : map) names.push_back(name);
  return names;
}

std::string indexed(std::string_view key, std::size_t index) {
  return fmt::format("{}[{}]", key, index);
}

// Each of `names` (written at `key`) is a capability set of the policy.
Status check_set_names(const Policy& policy, const std::vector<SourcedString>& names, std::string_view key) {
  auto sets = names_of(policy.capabilities);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& name = names[i];
    if (policy.capabilities.contains(name.value)) continue;
    return error_at(name.origin, indexed(key, i),
                    fmt::format("no capability set named '{}'{}", name.value,
                                did_you_mean(name.value, sets)));
  }
  return ok_status();
}

Status check_set_devices(const Policy& policy, const CapabilitySet& set) {
  auto classes = names_of(policy.devices);
  for (std::size_t i = 0; i < set.devices.size(); ++i) {
    const auto& name = set.devices[i];
    if (auto found = policy.devices.find(name.value); found != policy.devices.end()) {
      DeviceClass::Per per = found->second.per;
      if (per == DeviceClass::Per::fixed || per == DeviceClass::Per::gpu_sysfs) continue;
      // The planner would look for the template itself: a node that never exists.
      return error_at(name.origin, indexed(fmt::format("capability.{}.devices", set.name), i),
                      fmt::format("device class '{}' is per GPU, partition or minor: a capability set lists "
                                  "fixed and per = \"gpu-sysfs\" classes only",
                                  name.value));
    }
    return error_at(name.origin, indexed(fmt::format("capability.{}.devices", set.name), i),
                    fmt::format("no device class named '{}'{}", name.value,
                                did_you_mean(name.value, classes)));
  }
  return ok_status();
}

Status check_pull(const Policy& policy, const CapabilitySet& set, std::size_t index) {
  const auto& pull = set.pulls[index];
  std::string key = indexed(fmt::format("capability.{}.pulls", set.name), index);
  auto dot = pull.value.find('.');
  if (dot == std::string::npos) {
    return error_at(pull.origin, key,
                    fmt::format("expected '<set>.<field>', got '{}'", pull.value));
  }
  std::string source = pull.value.substr(0, dot);
  std::string field = pull.value.substr(dot + 1);
  if (!policy.capabilities.contains(source)) {
    return error_at(pull.origin, key,
                    fmt::format("no capability set named '{}'{}", source,
                                did_you_mean(source, names_of(policy.capabilities))));
  }
  if (std::find(std::begin(kPullableFields), std::end(kPullableFields), field) ==
      std::end(kPullableFields)) {
    return error_at(pull.origin, key,
                    fmt::format("'{}' is not a list field of a capability set{}", field,
                                did_you_mean(field, kPullableFields)));
  }
  return ok_status();
}

// Depth-first search over "set A pulls from set B"; a back edge is a cycle.
// Checked per set rather than per field so expansion can never recurse forever.
struct PullCycleFinder {
  const Policy& policy;
  std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
  std::vector<std::string> path;

  Status visit(const CapabilitySet& set) {
    state[set.name] = 1;
    path.push_back(set.name);
    for (std::size_t i = 0; i < set.pulls.size(); ++i) {
      std::string target = set.pulls[i].value.substr(0, set.pulls[i].value.find('.'));
      if (state[target] == 1) return cycle_error(set, i, target);
      if (state[target] == 0) {
        if (auto status = visit(policy.capabilities.at(target)); !status) return status;
      }
    }
    path.pop_back();
    state[set.name] = 2;
    return ok_status();
  }

  Status cycle_error(const CapabilitySet& set, std::size_t index, const std::string& target) {
    auto start = std::find(path.begin(), path.end(), target);
    std::string chain;
    for (auto it = start; it != path.end(); ++it) chain += *it + " -> ";
    chain += target;
    return error_at(set.pulls[index].origin,
                    indexed(fmt::format("capability.{}.pulls", set.name), index),
                    fmt::format("pull cycle: {}", chain));
  }
};

Status check_device_class(const DeviceClass& device) {
  std::string key = fmt::format("device.{}", device.name);
  if (device.path.empty()) return error_at(device.origin, key, "missing key 'path'");
  if (device.per == DeviceClass::Per::gpu_sysfs) {
    if (device.sys_path.empty()) return error_at(device.origin, key, "per = \"gpu-sysfs\" needs 'sys_path'");
    if (device.path.find("{name}") == std::string::npos)
      return error_at(device.origin, key + ".path", "needs {name}: the sysfs entry's name");
    return ok_status();
  }
  if (!device.sys_path.empty())
    return error_at(device.origin, key + ".sys_path", "only a per = \"gpu-sysfs\" class has a sys_path");
  if (!device.dev_link.empty())
    return error_at(device.origin, key + ".dev_link", "only a per = \"gpu-sysfs\" class has a dev_link");
  bool templated = device.path.find("{minor}") != std::string::npos;
  if (device.per == DeviceClass::Per::fixed && templated) {
    return error_at(device.origin, key + ".path",
                    "contains {minor} but per is \"fixed\"; use per = \"gpu\" or \"partition\"");
  }
  if (device.per != DeviceClass::Per::fixed && !templated) {
    return error_at(device.origin, key + ".path",
                    "needs {minor}: one node is made per GPU, partition or granted minor");
  }
  return ok_status();
}

// "dirs-only" opens no cache: without a directory, no library could be found,
// and every GPU container would start without its driver.
Status check_library_search(const Discovery& discovery) {
  if (discovery.library_search != Discovery::LibrarySearch::dirs_only || !discovery.library_dirs.empty())
    return ok_status();
  return error_at(discovery.library_search_origin, "discovery.library_search",
                  "\"dirs-only\" needs discovery.library_dirs: without one no driver library is found");
}

}  // namespace

Status validate_policy(const Policy& policy) {
  if (auto status = check_set_names(policy, policy.default_capabilities, "defaults.capabilities"); !status)
    return status;
  if (auto status = check_set_names(policy, policy.cdi.gpu_capabilities.sets, "cdi.gpu_capabilities"); !status)
    return status;
  if (auto status = check_library_search(policy.discovery); !status) return status;
  if (auto status = check_vendors(policy); !status) return status;
  for (const auto& [name, device] : policy.devices) {
    if (auto status = check_device_class(device); !status) return status;
  }
  for (const auto& [name, set] : policy.capabilities) {
    if (auto status = check_set_devices(policy, set); !status) return status;
    for (std::size_t i = 0; i < set.pulls.size(); ++i) {
      if (auto status = check_pull(policy, set, i); !status) return status;
    }
  }
  PullCycleFinder finder{policy, {}, {}};
  for (const auto& [name, set] : policy.capabilities) {
    if (finder.state[name] != 0) continue;
    if (auto status = finder.visit(set); !status) return status;
  }
  return ok_status();
}

}  // namespace graft::policy_parse
