// SPDX-License-Identifier: Apache-2.0
#include "config_plan_edit.hpp"

#include <algorithm>

namespace graft::runtime {
namespace {

// config[key], made when absent; it must be an array (`array`) or an object.
Result<ordered_json*> member(ordered_json& config, const char* key, const std::string& where,
                             bool array) {
  ordered_json& value = config[key];
  if (value.is_null()) value = array ? ordered_json::array() : ordered_json::object();
  if (array ? !value.is_array() : !value.is_object())
    return make_error("config.json: {}{}: expected an {}", where, key, array ? "array" : "object");
  return &value;
}

// Appends `entry` unless an equal one (by `same`) is there.
template <typename Same>
bool add_once(ordered_json& list, ordered_json entry, Same same) {
  if (std::any_of(list.begin(), list.end(), [&](const ordered_json& known) { return same(known, entry); }))
    return false;
  list.push_back(std::move(entry));
  return true;
}

bool same_path(const ordered_json& a, const ordered_json& b) {
  return a.is_object() && a.value("path", "") == b.value("path", "");
}

bool same_value(const ordered_json& a, const ordered_json& b) { return a == b; }

bool same_destination(const ordered_json& a, const ordered_json& b) {
  return a.is_object() && a.value("destination", "") == b.value("destination", "");
}

std::string type_of(char type) { return std::string(1, type); }

Result<bool> write_devices(ordered_json& config, const NativeEdits& edits) {
  if (edits.device_nodes.empty() && edits.device_rules.empty()) return false;
  auto linux_section = member(config, "linux", "", false);
  if (!linux_section) return linux_section.error();
  bool changed = false;
  if (!edits.device_nodes.empty()) {
    auto devices = member(**linux_section, "devices", "linux.", true);
    if (!devices) return devices.error();
    for (const auto& node : edits.device_nodes)
      changed |= add_once(**devices,
                          {{"path", node.path}, {"type", type_of(node.type)}, {"major", node.major},
                           {"minor", node.minor}},
                          same_path);
  }
  if (edits.device_rules.empty()) return changed;
  auto resources = member(**linux_section, "resources", "linux.", false);
  if (!resources) return resources.error();
  auto rules = member(**resources, "devices", "linux.resources.", true);
  if (!rules) return rules.error();
  // After the engine's rules: the last rule that matches decides.
  for (const auto& rule : edits.device_rules)
    changed |= add_once(**rules,
                        {{"allow", true}, {"type", type_of(rule.type)}, {"major", rule.major},
                         {"minor", rule.minor}, {"access", rule.access}},
                        same_value);
  return changed;
}

Result<bool> write_mounts(ordered_json& config, const NativeEdits& edits) {
  if (edits.mounts.empty()) return false;
  auto mounts = member(config, "mounts", "", true);
  if (!mounts) return mounts.error();
  bool changed = false;
  for (const auto& mount : edits.mounts)
    changed |= add_once(**mounts,
                        {{"destination", mount.container_path}, {"type", "bind"},
                         {"source", mount.host_path}, {"options", mount.options}},
                        same_destination);
  return changed;
}

// NAME=VALUE replaces an entry of that name, so the process sees one value.
Result<bool> write_env(ordered_json& config, const NativeEdits& edits) {
  if (edits.env.empty()) return false;
  auto process = member(config, "process", "", false);
  if (!process) return process.error();
  auto env = member(**process, "env", "process.", true);
  if (!env) return env.error();
  bool changed = false;
  for (const auto& variable : edits.env) {
    std::string entry = variable.name + "=" + variable.value;
    auto named = std::find_if((*env)->begin(), (*env)->end(), [&](const ordered_json& known) {
      return known.is_string() && known.get<std::string>().starts_with(variable.name + "=");
    });
    if (named == (*env)->end()) {
      (*env)->push_back(entry);
      changed = true;
    } else if (*named != entry) {
      *named = entry;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

Result<bool> write_plan_edits(ordered_json& config, const NativeEdits& edits,
                              const std::optional<HookCommand>& residual_hook) {
  if (!config.is_object()) return make_error("config.json: expected a JSON object");
  auto hooked = has_graft_hook(config);
  if (!hooked) return hooked.error();
  if (*hooked) return false;  // graft's hook (hooks.d, a CDI spec) applies the plan itself
  bool changed = false;
  for (auto* write : {write_devices, write_mounts, write_env}) {
    auto wrote = write(config, edits);
    if (!wrote) return wrote.error();
    changed |= *wrote;
  }
  if (!residual_hook) return changed;
  if (auto status = append_create_runtime_hook(config, *residual_hook); !status) return status.error();
  return true;
}

}  // namespace graft::runtime
