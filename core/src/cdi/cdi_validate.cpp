// SPDX-License-Identifier: Apache-2.0
#include "cdi/cdi_validate.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "cdi_format/cdi_names.hpp"
#include "cdi_format/cdi_version.hpp"

namespace graft::cdi {
namespace {

using json = nlohmann::json;

// A field a version gates, where it was seen.
struct Use {
  Feature feature;
  std::string path;
};

struct Checker {
  std::vector<std::string> errors;
  std::vector<Use> uses;

  void error(const std::string& path, const std::string& message) { errors.push_back(path + ": " + message); }
  void use(Feature feature, const std::string& path) { uses.push_back({feature, path}); }

  // Unknown keys are errors: runtimes reject them too.
  bool object(const json& value, const std::string& path, std::initializer_list<const char*> known) {
    if (!value.is_object()) {
      error(path, "expected an object");
      return false;
    }
    for (const auto& [key, item] : value.items())
      if (std::none_of(known.begin(), known.end(), [&](const char* name) { return key == name; }))
        error(path + "." + key, "unknown field");
    return true;
  }

  const json* required(const json& object, const char* key, const std::string& path) {
    auto found = object.find(key);
    if (found != object.end()) return &*found;
    error(path + "." + key, "required field missing");
    return nullptr;
  }

  std::optional<std::string> string(const json& value, const std::string& path) {
    if (value.is_string()) return value.get<std::string>();
    error(path, "expected a string");
    return std::nullopt;
  }

  void absolute(const json& value, const std::string& path) {
    if (auto text = string(value, path); text && !text->starts_with("/"))
      error(path, "'" + *text + "' must be an absolute path");
  }

  void integer(const json& value, const std::string& path) {
    if (!value.is_number_integer()) error(path, "expected an integer");
  }

  void strings(const json& value, const std::string& path) {
    if (!value.is_array()) return error(path, "expected an array of strings");
    for (std::size_t i = 0; i < value.size(); ++i) string(value[i], fmt::format("{}[{}]", path, i));
  }

  template <typename Each>
  void array(const json& value, const std::string& path, Each each) {
    if (!value.is_array()) return error(path, "expected an array");
    for (std::size_t i = 0; i < value.size(); ++i) each(value[i], fmt::format("{}[{}]", path, i));
  }
};

void check_node(Checker& c, const json& node, const std::string& path) {
  if (!c.object(node, path, {"path", "hostPath", "type", "major", "minor", "fileMode", "permissions", "uid", "gid"}))
    return;
  if (auto* value = c.required(node, "path", path)) c.absolute(*value, path + ".path");
  if (node.contains("hostPath")) {
    c.use(Feature::device_node_host_path, path + ".hostPath");
    c.absolute(node["hostPath"], path + ".hostPath");
  }
  if (node.contains("type"))
    if (auto type = c.string(node["type"], path + ".type"); type && *type != "c" && *type != "b" &&
                                                             *type != "u" && *type != "p")
      c.error(path + ".type", "'" + *type + "' is not one of c, b, u, p");
  for (const char* key : {"major", "minor", "fileMode", "uid", "gid"})
    if (node.contains(key)) c.integer(node[key], path + "." + key);
  if (node.contains("permissions"))
    if (auto text = c.string(node["permissions"], path + ".permissions");
        text && text->find_first_not_of("rwm") != std::string::npos)
      c.error(path + ".permissions", "'" + *text + "' takes only r, w and m");
}

void check_hook(Checker& c, const json& hook, const std::string& path, bool device_level) {
  if (!c.object(hook, path, {"hookName", "path", "args", "env", "timeout"})) return;
  static const std::set<std::string> names = {"prestart",       "createRuntime", "createContainer",
                                              "startContainer", "poststart",     "poststop"};
  if (auto* value = c.required(hook, "hookName", path))
    if (auto name = c.string(*value, path + ".hookName"); name && !names.count(*name))
      c.error(path + ".hookName", "'" + *name + "' is not an OCI hook (prestart, createRuntime, "
                                  "createContainer, startContainer, poststart, poststop)");
  if (auto* value = c.required(hook, "path", path)) c.absolute(*value, path + ".path");
  if (hook.contains("args")) c.strings(hook["args"], path + ".args");
  if (hook.contains("env")) {
    c.use(Feature::hook_env, path + ".env");
    c.strings(hook["env"], path + ".env");
  }
  if (hook.contains("timeout")) c.integer(hook["timeout"], path + ".timeout");
  if (device_level) c.use(Feature::device_hooks, path);
}

void check_mount(Checker& c, const json& mount, const std::string& path) {
  if (!c.object(mount, path, {"hostPath", "containerPath", "options", "type"})) return;
  if (auto* value = c.required(mount, "hostPath", path)) c.string(*value, path + ".hostPath");
  if (auto* value = c.required(mount, "containerPath", path)) c.absolute(*value, path + ".containerPath");
  if (mount.contains("options")) c.strings(mount["options"], path + ".options");
  if (mount.contains("type")) {
    c.use(Feature::mount_type, path + ".type");
    c.string(mount["type"], path + ".type");
  }
}

void check_edits(Checker& c, const json& edits, const std::string& path, bool device_level) {
  if (!c.object(edits, path, {"env", "deviceNodes", "hooks", "mounts", "intelRdt", "additionalGids", "netDevices"}))
    return;
  if (edits.contains("env")) {
    c.use(Feature::container_env, path + ".env");
    c.strings(edits["env"], path + ".env");
  }
  if (edits.contains("deviceNodes"))
    c.array(edits["deviceNodes"], path + ".deviceNodes", [&](const json& n, const std::string& p) { check_node(c, n, p); });
  if (edits.contains("hooks"))
    c.array(edits["hooks"], path + ".hooks",
            [&](const json& h, const std::string& p) { check_hook(c, h, p, device_level); });
  if (edits.contains("mounts"))
    c.array(edits["mounts"], path + ".mounts", [&](const json& m, const std::string& p) { check_mount(c, m, p); });
  if (edits.contains("intelRdt")) c.use(Feature::intel_rdt, path + ".intelRdt");
  if (edits.contains("additionalGids")) c.use(Feature::additional_gids, path + ".additionalGids");
  if (edits.contains("netDevices")) c.use(Feature::net_devices, path + ".netDevices");
}

void check_device(Checker& c, const json& device, const std::string& path, std::set<std::string>& seen) {
  if (!c.object(device, path, {"name", "annotations", "containerEdits"})) return;
  if (auto* value = c.required(device, "name", path))
    if (auto name = c.string(*value, path + ".name")) {
      if (auto status = validate_device_name(*name); !status) c.error(path + ".name", status.error().message);
      if (!name->empty() && std::isdigit(static_cast<unsigned char>((*name)[0])))
        c.use(Feature::device_name_leading_digit, path + ".name");
      if (!seen.insert(*name).second) c.error(path + ".name", "device '" + *name + "' is named twice");
    }
  if (device.contains("annotations")) c.use(Feature::annotations, path + ".annotations");
  if (auto* edits = c.required(device, "containerEdits", path)) {
    check_edits(c, *edits, path + ".containerEdits", true);
    if (edits->is_object() && edits->empty()) c.error(path + ".containerEdits", "a device must have edits");
  }
}

std::optional<Version> check_top(Checker& c, const json& document) {
  std::optional<Version> version;
  if (auto* value = c.required(document, "cdiVersion", "$"))
    if (auto text = c.string(*value, "$.cdiVersion")) {
      auto parsed = parse_version(*text);
      if (parsed) version = *parsed;
      else c.error("$.cdiVersion", parsed.error().message);
    }
  if (auto* value = c.required(document, "kind", "$"))
    if (auto text = c.string(*value, "$.kind")) {
      auto kind = parse_kind(*text);
      if (!kind) c.error("$.kind", kind.error().message);
      else for (Feature feature : features_of(QualifiedName{kind->vendor, kind->klass, "x"})) c.use(feature, "$.kind");
    }
  if (document.contains("annotations")) c.use(Feature::annotations, "$.annotations");
  if (document.contains("containerEdits")) check_edits(c, document["containerEdits"], "$.containerEdits", false);
  return version;
}

}  // namespace

std::vector<std::string> validate_spec(const json& document) {
  Checker c;
  if (!c.object(document, "$", {"cdiVersion", "kind", "annotations", "devices", "containerEdits"})) return c.errors;
  std::optional<Version> version = check_top(c, document);
  std::set<std::string> seen;
  if (auto* devices = c.required(document, "devices", "$")) {
    c.array(*devices, "$.devices", [&](const json& d, const std::string& p) { check_device(c, d, p, seen); });
    if (devices->is_array() && devices->empty()) c.error("$.devices", "a spec must have at least one device");
  }
  if (version)
    for (const auto& use : c.uses)
      if (!supports(*version, use.feature))
        c.error(use.path, fmt::format("{} needs cdiVersion {} or later (declared {})", feature_name(use.feature),
                                      to_string(introduced_in(use.feature)), to_string(*version)));
  return c.errors;
}

}  // namespace graft::cdi
