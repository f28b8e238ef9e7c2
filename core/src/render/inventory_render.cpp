// SPDX-License-Identifier: Apache-2.0
// `graft inventory`: what discovery found on this host, as text or JSON.
#include <fmt/format.h>

#include "render/render.hpp"

namespace graft {

namespace {

using json = nlohmann::json;

json gpus_json(const std::vector<Gpu>& gpus) {
  json out = json::array();
  for (const auto& gpu : gpus) {
    json partitions = json::array();
    for (const auto& p : gpu.partitions)
      partitions.push_back({{"index", p.index}, {"gi", p.gi}, {"ci", p.ci},
                            {"gi_minor", p.gi_minor ? json(*p.gi_minor) : json(nullptr)},
                            {"ci_minor", p.ci_minor ? json(*p.ci_minor) : json(nullptr)}});
    out.push_back({{"index", gpu.index}, {"vendor", gpu.vendor}, {"vendor_index", gpu.vendor_index},
                   {"minor", gpu.minor}, {"uuid", gpu.uuid},
                   {"bus_id", gpu.bus_id}, {"model", gpu.model}, {"proc_dir", gpu.proc_dir},
                   {"partitions", partitions}});
  }
  return out;
}

json nodes_json(const std::map<std::string, DeviceNode>& nodes) {
  json out = json::object();
  for (const auto& [path, node] : nodes)
    out[path] = {{"host_path", node.host_path}, {"type", std::string(1, node.type)},
                 {"major", node.major}, {"minor", node.minor}, {"exists", node.exists}};
  return out;
}

// "ldcache" or "dir", and the cache or directory as the policy names it.
std::string source_kind(const LibrarySource& source) {
  return source.kind == LibrarySource::Kind::dir ? "dir" : "ldcache";
}

json libraries_json(const std::map<std::string, std::vector<Library>>& libraries) {
  json out = json::object();
  for (const auto& [prefix, found] : libraries)
    for (const auto& library : found)
      out[prefix].push_back({{"soname", library.soname},
                             {"host_path", library.host_path},
                             {"lib32", library.lib32},
                             {"source", {{"kind", source_kind(library.source)}, {"path", library.source.path}}}});
  return out;
}

json files_json(const std::map<std::string, HostFile>& files) {
  json out = json::object();
  for (const auto& [name, file] : files) out[name] = file.host_path;
  return out;
}

json caps_json(const PartitionCaps& caps) {
  json out = json::object();
  for (auto [name, minor] : caps) out[std::string(name)] = minor;
  return out;
}

}  // namespace

nlohmann::json render_inventory_json(const Inventory& inventory) {
  json firmware = json::array();
  for (const auto& [_, found] : inventory.firmware)
    for (const auto& file : found) firmware.push_back(file.host_path);
  return {{"schema", inventory_schema_id},
          {"driver_version", inventory.driver_version},
          {"driver_versions", inventory.driver_versions},
          {"gpus", gpus_json(inventory.gpus)},
          {"char_majors", inventory.char_majors},
          {"partition_caps", caps_json(inventory.partition_caps)},
          {"device_nodes", nodes_json(inventory.device_nodes)},
          {"libraries", libraries_json(inventory.libraries)},
          {"binaries", files_json(inventory.binaries)},
          {"firmware", firmware},
          {"ipc", files_json(inventory.ipc)},
          {"config_files", files_json(inventory.config_files)},
          {"warnings", inventory.warnings}};
}

std::string render_inventory_text(const Inventory& inventory) {
  std::string out;
  // A host of several vendors: one driver line each, and each GPU says whose it is.
  bool named = inventory.driver_versions.size() > 1;
  if (!named) out = fmt::format("driver   {}\n", inventory.driver_version.empty() ? "none" : inventory.driver_version);
  for (const auto& [vendor, version] : inventory.driver_versions)
    if (named) out += fmt::format("driver   {} {}\n", vendor, version.empty() ? "unknown" : version);
  for (const auto& gpu : inventory.gpus) {
    std::string whose = !named ? "" : fmt::format("{} {}  ", gpu.vendor, gpu.vendor_index);
    out += fmt::format("GPU {}    {}minor {}  {}  {}  {}\n", gpu.index, whose, gpu.minor, gpu.uuid, gpu.bus_id,
                       gpu.model);
    for (const auto& p : gpu.partitions)
      out += fmt::format("  partition {}:{}  gi {} ci {}\n", gpu.index, p.index, p.gi, p.ci);
  }
  for (const auto& [path, node] : inventory.device_nodes)
    out += fmt::format("node     {}  {} {}:{}{}\n", path, node.type, node.major, node.minor,
                       node.exists ? "" : "  (not created yet)");
  for (const auto& [prefix, found] : inventory.libraries)
    for (const auto& library : found)
      out += fmt::format("library  {:<28} {}{}  from {} {}\n", library.soname, library.host_path,
                         library.lib32 ? "  (32-bit)" : "", source_kind(library.source), library.source.path);
  for (const auto& [name, file] : inventory.binaries) out += fmt::format("binary   {}\n", file.host_path);
  for (const auto& [_, found] : inventory.firmware)
    for (const auto& file : found) out += fmt::format("firmware {}\n", file.host_path);
  for (const auto& [name, file] : inventory.ipc) out += fmt::format("ipc      {}\n", file.host_path);
  for (const auto& [name, file] : inventory.config_files)
    out += fmt::format("config   {}\n", file.host_path);
  for (const auto& warning : inventory.warnings) out += fmt::format("warning  {}\n", warning);
  return out;
}

}  // namespace graft
