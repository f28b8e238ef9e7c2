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
    add(BoundaryFinding::Kind::outside, origin, std::move(key), checked, what);
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
      add(BoundaryFinding::Kind::outside, device_class.origin, "device." + name + ".major_name",
          device_class.major_name, "a driver whose nodes graft makes");
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
        add(BoundaryFinding::Kind::not_a_name, policy_.procfs.origin, "procfs.copy", name, "");
  }

  // Where graft writes as root, in or below one of the state directories.
  void claims() {
    std::string dir = as_checked(policy_.exclusive.state_dir);
    state("exclusive.state_dir", dir, dir, "a directory graft writes claims into");
  }

  void audit_log() {
    if (policy_.audit_log.empty()) return;
    std::string log = as_checked(policy_.audit_log);
    state("audit.log", log, dirname_of(log), "a file graft appends its audit records to");
  }

  // What a GPU container's evaluation depends on: everything but the audit log.
  void for_containers() {
    capability_sets();
    device_classes();
    extras();
    procfs();
    claims();
  }

  std::vector<BoundaryFinding> take() { return std::move(found_); }

 private:
  void add(BoundaryFinding::Kind kind, const Origin& origin, std::string key, std::string path, const char* what) {
    found_.push_back(BoundaryFinding{kind, origin, std::move(key), std::move(path), what});
  }

  // `path`, written into `dir`, which must be in or below a state directory.
  void state(const std::string& key, const std::string& path, const std::string& dir, const char* what) {
    if (Boundary::within(places_.state_dirs, dir)) return;
    auto origin = policy_.key_origins.find(key);
    add(BoundaryFinding::Kind::state, origin == policy_.key_origins.end() ? Origin{} : origin->second.origin, key,
        path, what);
  }

  bool declared_driver(const std::string& name) const {
    for (const auto& driver : places_.device_drivers)
      if (driver.path == name) return true;
    return false;
  }

  const Policy& policy_;
  const Places& places_;
  std::vector<BoundaryFinding> found_;
};

std::string graft_state_dirs() {
  std::string dirs;
  for (const char* dir : kGraftStateDirs) dirs += (dirs.empty() ? "" : ", ") + std::string(dir);
  return dirs;
}

}  // namespace

std::string to_line(const BoundaryFinding& finding) {
  std::string where = finding.origin.empty() ? "graft's default" : finding.origin.full();
  std::string why;
  switch (finding.kind) {
    case BoundaryFinding::Kind::not_a_name:
      return fmt::format("{}: {}: '{}' is not a file name", where, finding.key, finding.path);
    case BoundaryFinding::Kind::site_places:
      return fmt::format("{}: {}: ignored: only a shipped vendor policy declares places; a node widens them in its "
                         "allow file", where, finding.key);
    case BoundaryFinding::Kind::state:
      why = fmt::format("it is under none of graft's state directories ({}) and the node's allow file does not "
                        "allow it", graft_state_dirs());
      break;
    case BoundaryFinding::Kind::outside:
      why = kOutsideBoundary;
      break;
  }
  return fmt::format("{}: {}: {} is {} outside the policy boundary: {} ({}, \"The policy boundary\")", where,
                     finding.key, finding.path, finding.what, why, doc_page("security.md"));
}

std::vector<BoundaryFinding> policy_paths_outside(const Policy& policy, const Boundary& boundary) {
  Collect collect(policy, boundary);
  collect.for_containers();
  collect.audit_log();
  return collect.take();
}

std::vector<BoundaryFinding> site_declared_places(const Policy& policy) {
  std::vector<BoundaryFinding> found;
  for (const auto& [name, vendor] : policy.vendors)
    for (const auto& origin : vendor.site_places)
      found.push_back({BoundaryFinding::Kind::site_places, origin, "vendor." + name + ".places", "", ""});
  return found;
}

Status check_policy_places(const Policy& policy, const Boundary& boundary) {
  Collect collect(policy, boundary);
  collect.for_containers();
  auto found = collect.take();
  if (found.empty()) return ok_status();
  return make_error("{}", to_line(found.front()));
}

}  // namespace graft
