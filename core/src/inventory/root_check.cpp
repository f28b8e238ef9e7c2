// SPDX-License-Identifier: Apache-2.0
// The host checks of `graft policy check` (root_check.hpp). Which finding is
// an error follows what discovery and the plan do with the same absence: a
// missing ld.so.cache or required device node fails them, a missing version
// file means no driver is found, so these are errors; a binary or firmware
// directory or one of several library directories is often absent on a
// working host, so these are warnings.
#include "policy/vendors.hpp"
#include "inventory/root_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "inventory/driver_procfs.hpp"
#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

using Severity = RootFinding::Severity;

enum class Kind { directory, regular, char_device };

// Why `info` is not a `want`; "" when it is.
std::string type_problem(const struct stat& info, Kind want) {
  switch (want) {
    case Kind::directory: return S_ISDIR(info.st_mode) ? "" : "not a directory";
    case Kind::regular: return S_ISREG(info.st_mode) ? "" : "not a regular file";
    case Kind::char_device: return S_ISCHR(info.st_mode) ? "" : "not a character device";
  }
  return "";
}

std::string errno_problem(int error) { return error == ENOENT ? "not found" : std::strerror(error); }

// A host path as discovery opens roots, procfs and device nodes: symlinks followed.
std::string host_problem(const std::string& path, Kind want) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return errno_problem(errno);
  return type_problem(info, want);
}

// A path inside the driver root as discovery opens it: absolute symlinks
// resolve inside the root (paths/paths.hpp, open_in_host_root).
std::string driver_root_problem(const std::string& root, const std::string& path, Kind want) {
  UniqueFd fd(open_in_host_root(root, path, O_PATH | O_CLOEXEC));
  if (!fd.valid()) return errno_problem(-fd.get());
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return errno_problem(errno);
  return type_problem(info, want);
}

// Each of `dirs` that is not a directory under the driver root, with why.
std::vector<std::pair<std::string, std::string>> missing_dirs(const std::string& root,
                                                              const std::vector<std::string>& dirs) {
  std::vector<std::pair<std::string, std::string>> missing;
  for (const auto& dir : dirs)
    if (auto problem = driver_root_problem(root, dir, Kind::directory); !problem.empty())
      missing.emplace_back(dir, problem);
  return missing;
}

// The findings of one policy, each naming where its keys were set.
class RootCheck {
 public:
  explicit RootCheck(const Policy& policy) : policy_(policy) {}

  Origin origin_of(const std::string& key) const {
    auto found = policy_.key_origins.find(key);
    return found == policy_.key_origins.end() ? Origin{} : found->second.origin;
  }

  void add(Severity severity, std::string key, Origin origin, const std::string& root_key, std::string path,
           std::string problem) {
    Origin root_origin = root_key.empty() ? Origin{} : origin_of(root_key);
    findings_.push_back(RootFinding{severity, std::move(key), std::move(origin), root_key, std::move(root_origin),
                                    std::move(path), std::move(problem)});
  }

  // A discovery key's path under a root; nothing when `problem` is "".
  void add_under(Severity severity, const std::string& key, const std::string& root_key, std::string path,
                 const std::string& problem, std::string_view why = {}) {
    if (problem.empty()) return;
    add(severity, key, origin_of(key), root_key, std::move(path),
        why.empty() ? problem : fmt::format("{}: {}", problem, why));
  }

  const Policy& policy() const { return policy_; }
  std::vector<RootFinding> take() { return std::move(findings_); }

 private:
  const Policy& policy_;
  std::vector<RootFinding> findings_;
};

struct RootKey {
  const char* name;
  std::string HostRoots::*member;
};
constexpr RootKey kRoots[] = {
    {"driver_root", &HostRoots::driver_root}, {"dev_root", &HostRoots::dev_root},
    {"proc_root", &HostRoots::proc_root},     {"sys_root", &HostRoots::sys_root},
    {"run_root", &HostRoots::run_root},
};

// Whether the root is a directory; a finding when it is not.
bool check_root(RootCheck& check, const RootKey& root) {
  std::string key = std::string("host.") + root.name;
  const std::string& path = check.policy().host.*root.member;
  std::string problem = host_problem(path, Kind::directory);
  if (problem.empty()) return true;
  check.add(Severity::error, key, check.origin_of(key), "", path, problem);
  return false;
}

// The ld.so.cache and library_dirs, as library_selection.cpp reads them.
void check_library_sources(RootCheck& check) {
  const Policy& policy = check.policy();
  const Discovery& discovery = policy.discovery;
  const std::string& root = policy.host.driver_root;
  bool dirs_only = discovery.library_search == Discovery::LibrarySearch::dirs_only;
  if (!dirs_only)
    check.add_under(Severity::error, "discovery.ldcache", "host.driver_root", join_root(root, discovery.ldcache),
                    driver_root_problem(root, discovery.ldcache, Kind::regular),
                    "driver libraries are looked up in it (library_search = \"dirs-only\" does without)");
  auto missing = missing_dirs(root, discovery.library_dirs);
  // With dirs-only and not one directory there, no library can be found.
  bool none = dirs_only && missing.size() == discovery.library_dirs.size();
  for (const auto& [dir, problem] : missing)
    check.add_under(none ? Severity::error : Severity::warning, "discovery.library_dirs", "host.driver_root",
                    join_root(root, dir), problem,
                    none ? "library_search = \"dirs-only\" and no library directory is there"
                         : "no library is looked for there");
}

// Directories a policy lists are each meant to be there; of graft's default
// list (a plain host's /usr/bin, /sbin, ...) some are often absent, so only
// all of them missing is worth a line.
void check_binary_dirs(RootCheck& check) {
  const Policy& policy = check.policy();
  const std::string& root = policy.host.driver_root;
  auto missing = missing_dirs(root, policy.discovery.binary_dirs);
  bool listed = policy.key_origins.contains("discovery.binary_dirs");
  if (!listed && missing.size() < policy.discovery.binary_dirs.size()) return;
  for (const auto& [dir, problem] : missing)
    check.add_under(Severity::warning, "discovery.binary_dirs", "host.driver_root", join_root(root, dir), problem,
                    "no binary is looked for there");
}

void check_driver_files(RootCheck& check) {
  check_library_sources(check);
  check_binary_dirs(check);
  const Policy& policy = check.policy();
  const std::string& root = policy.host.driver_root;
  const std::string& firmware = policy.discovery.firmware_dir;
  if (!firmware.empty())
    check.add_under(Severity::warning, "discovery.firmware_dir", "host.driver_root", join_root(root, firmware),
                    driver_root_problem(root, firmware, Kind::directory), "no firmware is injected");
}

// The driver's version file is the first thing discovery reads; without it
// the host has no driver version, so no libraries and no GPUs.
void check_driver_procfs(RootCheck& check) {
  const Policy& policy = check.policy();
  for (const auto& source : gpu_sources(policy)) {
    const std::string& file = source.discovery->version_file;
    if (file.empty() || !source.discovery->version_required) continue;
    bool in_sys = &discovery_root(policy.host, file) == &policy.host.sys_root;
    std::string path = join_root(discovery_root(policy.host, file), file);
    std::string key = source.vendor.empty() ? "discovery.version_file" : "vendor." + source.vendor + ".version_file";
    check.add_under(Severity::error, key, in_sys ? "host.sys_root" : "host.proc_root", path,
                    host_problem(path, Kind::regular),
                    in_sys ? "no driver is loaded, or sys_root is not where the host's sysfs is"
                           : "no driver is loaded, or proc_root is not where the driver's procfs is");
  }
}

// A required device class of one fixed node fails every plan without it.
void check_required_nodes(RootCheck& check) {
  const Policy& policy = check.policy();
  for (const auto& [name, device] : policy.devices) {
    if (!device.required || device.per != DeviceClass::Per::fixed || device.is_glob()) continue;
    std::string path = join_root(policy.host.dev_root, device.path);
    std::string problem = host_problem(path, Kind::char_device);
    if (problem.empty()) continue;
    check.add(Severity::error, "device." + name, device.origin, "host.dev_root", path,
              problem + ": a required device node (every plan fails without it)");
  }
}

std::string origin_text(const Origin& origin) { return origin.empty() ? "default" : origin.full(); }

}  // namespace

std::string describe(const RootFinding& finding) {
  std::string under = finding.root_key.empty()
                          ? ""
                          : fmt::format(" under {} ({})", finding.root_key, origin_text(finding.root_origin));
  return fmt::format("{} ({}){}: {}: {}", finding.key, origin_text(finding.origin), under, finding.path,
                     finding.problem);
}

std::vector<RootFinding> check_host_roots(const Policy& policy) {
  RootCheck check(policy);
  bool driver = check_root(check, kRoots[0]);
  bool dev = check_root(check, kRoots[1]);
  bool proc = check_root(check, kRoots[2]);
  check_root(check, kRoots[3]);
  check_root(check, kRoots[4]);
  if (driver) check_driver_files(check);
  if (proc) check_driver_procfs(check);
  if (dev) check_required_nodes(check);
  return check.take();
}

}  // namespace graft
