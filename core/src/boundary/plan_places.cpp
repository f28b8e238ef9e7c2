// SPDX-License-Identifier: Apache-2.0
#include "boundary/plan_places.hpp"

#include <sys/sysmacros.h>

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "boundary/host_entry.hpp"
#include "graft/engine/install_dirs.hpp"
#include "paths/paths.hpp"

namespace graft {
namespace {

using DeviceId = std::pair<unsigned, unsigned>;

struct Judge {
  const Plan& plan;
  const Inventory& inventory;
  const Policy& policy;
  const Boundary& boundary;
  std::set<unsigned> driver_majors;
  std::set<DeviceId> accepted_nodes;
  std::set<std::string> libraries;  // host paths of the libraries discovery found
  std::set<std::string> binaries;   // and of the binaries

  const Places& places() const { return boundary.places(); }

  Error refuse(const Action& action, const std::string& what) const {
    const Origin& origin = action.provenance.origin;
    return make_error("{} {} for {}{}: {}, and {} ({}, \"The policy boundary\")", to_string(action.kind),
                      action.kind == ActionKind::cgroup_allow ? action.target : action.source,
                      action.provenance.reason, origin.empty() ? "" : " at " + origin.full(), what,
                      kOutsideBoundary, doc_page("security.md"));
  }

  // The host root a plugin's sources are under.
  const std::string& root_of(const Action& action) const {
    const HostRoots& roots = policy.host;
    if (action.plugin == "devices") return roots.dev_root;
    if (action.plugin == "ipc") return roots.run_root;
    if (action.plugin == "procfs") return roots.proc_root;
    return roots.driver_root;
  }

  // Once per plan: a lookup per bind, not a walk of every library.
  void note_discovered_files() {
    for (const auto& [_, found] : inventory.libraries)
      for (const auto& library : found) libraries.insert(library.host_path);  // the bind's source
    for (const auto& [_, binary] : inventory.binaries) binaries.insert(binary.host_path);
  }

  Status bind_regular_file(const Action& action, const HostEntry& entry) const {
    if (libraries.contains(action.source)) return ok_status();
    // A program, found by name in the binary directories: executable by
    // someone, as no secret file (shadow, a key) is.
    if (binaries.contains(action.source)) {
      if (entry.info.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) return ok_status();
      return refuse(action, fmt::format("{} is a binary that is not executable", entry.path));
    }
    if (Boundary::matches(places().files, entry.path)) return ok_status();
    return refuse(action, fmt::format("{} is a regular file outside the declared files", entry.path));
  }

  Status bind_directory(const Action& action, const HostEntry& entry) const {
    bool writable = std::find(action.options.begin(), action.options.end(), "rw") != action.options.end();
    if (Boundary::matches(places().directories, entry.path)) return ok_status();
    if (!writable && Boundary::matches(places().read_only_directories, entry.path)) return ok_status();
    return refuse(action, fmt::format("{} is a directory bound {}", entry.path, writable ? "read-write" : "read-only"));
  }

  // A character device at a declared path, of a declared driver unless
  // the vendor named that very node.
  Status device(const Action& action, const std::string& path, unsigned major) {
    if (!Boundary::matches(places().devices, path))
      return refuse(action, fmt::format("{} is a device node outside the declared device paths", path));
    if (!driver_majors.contains(major) && !Boundary::names_exactly(places().devices, path))
      return refuse(action, fmt::format("{} has major {}, of no declared GPU driver", path, major));
    return ok_status();
  }

  Status bind_mount(const Action& action) {
    auto entry = resolve_host_entry(root_of(action), action.source);
    if (!entry) return entry.error().context(fmt::format("{} for {}", to_string(action.kind), action.provenance.reason));
    mode_t type = entry->info.st_mode & S_IFMT;
    if (type == S_IFSOCK || type == S_IFIFO) {
      if (Boundary::matches(places().sockets, entry->path)) return ok_status();
      return refuse(action, fmt::format("{} is {} outside the declared sockets", entry->path, entry_kind(entry->info)));
    }
    if (type == S_IFDIR) return bind_directory(action, *entry);
    if (type == S_IFREG) return bind_regular_file(action, *entry);
    if (type == S_IFCHR) return device(action, entry->path, ::major(entry->info.st_rdev));
    return refuse(action, fmt::format("{} is {}", entry->path, entry_kind(entry->info)));
  }

  Status device_node(const Action& action) {
    if (action.device_type != 'c') return refuse(action, fmt::format("{} is not a character device", action.target));
    std::string path = normalize_path(action.target);
    bool bound = std::find(action.options.begin(), action.options.end(), "bind") != action.options.end();
    if (bound) {
      auto entry = resolve_host_entry(policy.host.dev_root, action.source);
      if (!entry) return entry.error().context(fmt::format("device node for {}", action.provenance.reason));
      if (!S_ISCHR(entry->info.st_mode))
        return refuse(action, fmt::format("{} is {}", entry->path, entry_kind(entry->info)));
      if (entry->info.st_rdev != ::makedev(action.major, action.minor))
        return refuse(action, fmt::format("{} is no longer device {}:{}", entry->path, action.major, action.minor));
      path = entry->path;
    }
    if (auto status = device(action, path, action.major); !status) return status;
    accepted_nodes.insert({action.major, action.minor});
    return ok_status();
  }

  Status cgroup_allow(const Action& action) const {
    if (action.device_type == 'c' &&
        (driver_majors.contains(action.major) || accepted_nodes.contains({action.major, action.minor})))
      return ok_status();
    return refuse(action, "it is not a character device of a declared GPU driver");
  }

  Status procfs_mask(const Action& action) const {
    auto entry = resolve_host_entry(policy.host.proc_root, action.source);
    if (!entry) return entry.error().context(fmt::format("procfs mask for {}", action.provenance.reason));
    if (!S_ISDIR(entry->info.st_mode) || !Boundary::matches(places().read_only_directories, entry->path))
      return refuse(action, fmt::format("{} is {} outside the declared read-only directories", entry->path,
                                        entry_kind(entry->info)));
    for (const auto& name : action.paths)
      if (name.find('/') != std::string::npos || name == ".." || name == ".")
        return refuse(action, fmt::format("'{}' is not a file name in {}", name, entry->path));
    return ok_status();
  }

  Status check(const Action& action) {
    switch (action.kind) {
      case ActionKind::bind_mount: return bind_mount(action);
      case ActionKind::device_node: return device_node(action);
      case ActionKind::procfs_mask: return procfs_mask(action);
      default: return ok_status();  // container-side only: no host path
    }
  }
};

}  // namespace

Status check_plan_places(const Plan& plan, const Inventory& inventory, const Policy& policy,
                         const Boundary& boundary) {
  Judge judge{plan, inventory, policy, boundary, {}, {}, {}, {}};
  judge.note_discovered_files();
  for (const auto& driver : boundary.places().device_drivers)
    if (auto major = inventory.char_majors.find(driver.path); major != inventory.char_majors.end())
      judge.driver_majors.insert(major->second);
  // Nodes first, so each cgroup rule can be matched with the node it serves.
  for (const auto& action : plan.actions)
    if (auto status = judge.check(action); !status) return status;
  for (const auto& action : plan.actions)
    if (action.kind == ActionKind::cgroup_allow)
      if (auto status = judge.cgroup_allow(action); !status) return status;
  return ok_status();
}

}  // namespace graft
