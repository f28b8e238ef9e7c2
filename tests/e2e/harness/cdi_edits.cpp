// SPDX-License-Identifier: Apache-2.0
#include "cdi_edits.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <stdexcept>

namespace graft::e2e {
namespace {

using nlohmann::json;

// The node's type, major and minor, from the host node where the spec
// leaves them out.
json device_entry(const json& node) {
  json device = {{"path", node.at("path")}};
  std::string host = node.value("hostPath", node.at("path").get<std::string>());
  struct stat found {};
  bool have_stat = ::stat(host.c_str(), &found) == 0;
  if (node.contains("type")) {
    device["type"] = node["type"];
  } else if (have_stat) {
    device["type"] = S_ISBLK(found.st_mode) ? "b" : "c";
  }
  device["major"] = node.contains("major") ? node["major"] : json(have_stat ? ::major(found.st_rdev) : 0);
  device["minor"] = node.contains("minor") ? node["minor"] : json(have_stat ? ::minor(found.st_rdev) : 0);
  for (const char* field : {"fileMode", "uid", "gid"})
    if (node.contains(field)) device[field] = node[field];
  return device;
}

void add_device_node(const json& node, json& config) {
  json device = device_entry(node);
  auto& devices = config["linux"]["devices"];
  if (devices.is_null()) devices = json::array();
  for (auto it = devices.begin(); it != devices.end();)
    it = (*it).value("path", "") == device["path"] ? devices.erase(it) : it + 1;
  devices.push_back(device);
  std::string type = device.value("type", "");
  if (type == "c" || type == "b")
    config["linux"]["resources"]["devices"].push_back({{"allow", true}, {"type", type},
                                                       {"major", device["major"]}, {"minor", device["minor"]},
                                                       {"access", node.value("permissions", "rwm")}});
}

void add_mount(const json& mount, json& config) {
  json entry = {{"source", mount.at("hostPath")}, {"destination", mount.at("containerPath")}};
  json options = mount.value("options", json::array());
  entry["options"] = options;
  bool bind = std::find(options.begin(), options.end(), "bind") != options.end() ||
              std::find(options.begin(), options.end(), "rbind") != options.end();
  entry["type"] = mount.value("type", bind ? "bind" : "");
  auto& mounts = config["mounts"];
  for (auto it = mounts.begin(); it != mounts.end();)
    it = (*it).value("destination", "") == entry["destination"] ? mounts.erase(it) : it + 1;
  mounts.push_back(entry);
}

void add_hook(const json& hook, json& config) {
  json entry = {{"path", hook.at("path")}};
  for (const char* field : {"args", "env", "timeout"})
    if (hook.contains(field)) entry[field] = hook[field];
  config["hooks"][hook.at("hookName").get<std::string>()].push_back(entry);
}

void apply_edits(const json& edits, json& config) {
  for (const auto& entry : edits.value("env", json::array())) config["process"]["env"].push_back(entry);
  for (const auto& node : edits.value("deviceNodes", json::array())) add_device_node(node, config);
  for (const auto& mount : edits.value("mounts", json::array())) add_mount(mount, config);
  for (const auto& hook : edits.value("hooks", json::array())) add_hook(hook, config);
}

std::size_t depth(const json& mount) {
  std::string destination = mount.value("destination", "");
  return static_cast<std::size_t>(std::count(destination.begin(), destination.end(), '/'));
}

}  // namespace

void apply_cdi_edits(const json& spec, const std::vector<std::string>& devices, json& config) {
  if (spec.contains("containerEdits")) apply_edits(spec["containerEdits"], config);
  for (const auto& name : devices) {
    const auto& all = spec.at("devices");
    auto device = std::find_if(all.begin(), all.end(), [&](const json& d) { return d.value("name", "") == name; });
    if (device == all.end()) throw std::runtime_error("the CDI spec has no device " + name);
    apply_edits(device->at("containerEdits"), config);
  }
  auto& mounts = config["mounts"];
  std::stable_sort(mounts.begin(), mounts.end(), [](const json& a, const json& b) { return depth(a) < depth(b); });
}

}  // namespace graft::e2e
