// SPDX-License-Identifier: Apache-2.0
#include "boundary/policy_places.hpp"

#include <fmt/format.h>

#include "graft/engine/install_dirs.hpp"
#include "paths/paths.hpp"

namespace graft {
namespace {

// A policy path as the places see it: absolute, lexically normal, each
// template a "*" (a pattern in the text matches only a place at least as wide).
std::string as_checked(const std::string& path) {
  std::string text;
  for (std::size_t at = 0; at < path.size(); ++at) {
    std::size_t close = path[at] == '{' ? path.find('}', at) : std::string::npos;
    if (close == std::string::npos) {
      text += path[at];
      continue;
    }
    text += '*';
    at = close;
  }
  return normalize_path(text.starts_with('/') ? text : "/" + text);
}

class Collect {
 public:
  Collect(const Policy& policy, const Boundary& boundary) : policy_(policy), places_(boundary.places()) {}

  void check(const Origin& origin, std::string key, const std::string& path, const char* what,
             std::initializer_list<const std::vector<Place>*> allowed) {
    std::string checked = as_checked(path);
    for (const auto* places : allowed)
      if (Boundary::matches(*places, checked)) return;
    found_.push_back(BoundaryFinding{origin, std::move(key), checked, what});
  }

  void capability_sets() {
    for (const auto& [name, set] : policy_.capabilities) {
      std::string key = "capability." + name;
      for (const auto& ipc : set.ipc)
        check(ipc.origin, key + ".ipc", ipc.value, "a socket or IPC directory",
              {&places_.sockets, &places_.directories});
      for (const auto& file : set.config_files)
        check(file.origin, key + ".config_files", file.value, "a configuration file", {&places_.files});
      for (const auto& glob : set.firmware)
        check(glob.origin, key + ".firmware", policy_.discovery.firmware_dir + "/" + glob.value, "a firmware file",
              {&places_.files});
    }
  }

  void device_classes() {
    for (const auto& [name, device_class] : policy_.devices) {
      check(device_class.origin, "device." + name + ".path", device_class.path, "a device node", {&places_.devices});
      if (device_class.major_name.empty() || declared_driver(device_class.major_name)) continue;
      found_.push_back(BoundaryFinding{device_class.origin, "device." + name + ".major_name", device_class.major_name,
                                       "a driver whose nodes graft makes"});
    }
  }

  void extras() {
    for (const auto& [name, extra] : policy_.extras) {
      for (const auto& path : extra.bind_proc)
        check(extra.origin, "extra." + name + ".bind_proc", path, "a procfs directory",
              {&places_.read_only_directories});
      for (const auto& path : extra.bind_dev)
        check(extra.origin, "extra." + name + ".bind_dev", path, "a device directory",
              {&places_.read_only_directories});
    }
  }

  void procfs() {
    if (policy_.procfs.path.empty()) return;
    check(policy_.procfs.origin, "procfs.path", policy_.procfs.path, "a procfs directory",
          {&places_.read_only_directories});
    for (const auto& name : policy_.procfs.copy)
      if (name.find('/') != std::string::npos || name == "..")
        found_.push_back(BoundaryFinding{policy_.procfs.origin, "procfs.copy", name, "not a file name"});
  }

  // Where graft writes as root: claim files and the audit log, each in or
  // below one of the state directories.
  void state() {
    for (auto& finding : state_paths_outside(policy_, places_)) found_.push_back(std::move(finding));
  }

  std::vector<BoundaryFinding> take() { return std::move(found_); }

 private:
  bool declared_driver(const std::string& name) const {
    for (const auto& driver : places_.device_drivers)
      if (driver.path == name) return true;
    return false;
  }

  const Policy& policy_;
  const Places& places_;
  std::vector<BoundaryFinding> found_;
};

}  // namespace

std::vector<BoundaryFinding> state_paths_outside(const Policy& policy, const Places& places) {
  std::vector<BoundaryFinding> found;
  auto origin_of = [&](const std::string& key) {
    auto entry = policy.key_origins.find(key);
    return entry == policy.key_origins.end() ? Origin{} : entry->second.origin;
  };
  std::string claims = as_checked(policy.exclusive.state_dir);
  if (!Boundary::within(places.state_dirs, claims))
    found.push_back({origin_of("exclusive.state_dir"), "exclusive.state_dir", claims,
                     "a directory graft writes claims into"});
  if (policy.audit_log.empty()) return found;
  std::string log = as_checked(policy.audit_log);
  if (!Boundary::within(places.state_dirs, dirname_of(log)))
    found.push_back({origin_of("audit.log"), "audit.log", log, "a file graft appends its audit records to"});
  return found;
}

std::string to_line(const BoundaryFinding& finding) {
  std::string where = finding.origin.empty() ? "graft's default" : finding.origin.full();
  if (finding.what == std::string_view("not a file name"))
    return fmt::format("{}: {}: '{}' is not a file name", where, finding.key, finding.path);
  if (finding.key.ends_with(".places"))
    return fmt::format("{}: {}: ignored: only a shipped vendor policy declares places; a node widens them in its "
                       "allow file", where, finding.key);
  bool state = finding.key == "exclusive.state_dir" || finding.key == "audit.log";
  return fmt::format("{}: {}: {} is {} outside the policy boundary: {} ({}, \"The policy boundary\")", where,
                     finding.key, finding.path, finding.what,
                     state ? "it is under none of graft's state directories (/run/graft, /var/log/graft) and the "
                             "node's allow file does not allow it"
                           : kOutsideBoundary,
                     doc_page("security.md"));
}

std::vector<BoundaryFinding> policy_paths_outside(const Policy& policy, const Boundary& boundary) {
  Collect collect(policy, boundary);
  collect.capability_sets();
  collect.device_classes();
  collect.extras();
  collect.procfs();
  collect.state();
  return collect.take();
}

std::vector<BoundaryFinding> site_declared_places(const Policy& policy) {
  std::vector<BoundaryFinding> found;
  for (const auto& [name, vendor] : policy.vendors)
    for (const auto& origin : vendor.site_places)
      found.push_back(BoundaryFinding{origin, "vendor." + name + ".places", "", "a declaration of places"});
  return found;
}

Status check_policy_places(const Policy& policy, const Boundary& boundary) {
  for (const auto& finding : policy_paths_outside(policy, boundary))
    if (finding.key != "audit.log") return make_error("{}", to_line(finding));
  return ok_status();
}

}  // namespace graft
