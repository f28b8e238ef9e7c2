// SPDX-License-Identifier: Apache-2.0
// check_hook_needs. The audit log and an absolute runtime path are errors
// when missing: the hook, or graft-runtime, fails on them for every
// container. A runtime name is looked up on this process's PATH, which need
// not be graft-runtime's (containerd's shim has its own), so a name not found
// is a warning.
#include "policy_check/hook_needs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "paths/paths.hpp"
#include "graft/base/executable_path.hpp"
#include "plugin_host/plugin_loader.hpp"

namespace graft {
namespace {

namespace kinds = check_kinds;

std::string key_with_origin(const Policy& policy, const std::string& key) {
  auto found = policy.key_origins.find(key);
  return found == policy.key_origins.end() ? key : fmt::format("{} ({})", key, found->second.origin.full());
}

std::string stat_problem(const std::string& path, bool want_directory) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return errno == ENOENT ? "not found" : std::strerror(errno);
  if (want_directory && !S_ISDIR(info.st_mode)) return "not a directory";
  if (!want_directory && !S_ISREG(info.st_mode)) return "not a regular file";
  return "";
}

void check_audit_log(const Policy& policy, std::vector<CheckFinding>& findings) {
  if (policy.audit_log.empty()) return;
  const std::string& log = policy.audit_log;
  std::string key = key_with_origin(policy, "audit.log");
  std::string dir = dirname_of(log);
  std::string problem = stat_problem(dir, true);
  if (!problem.empty()) {
    findings.push_back({kinds::needs_error, fmt::format("{}: {}: its directory {}: {}: the hook would fail every "
                                                        "container", key, log, dir, problem)});
    return;
  }
  bool exists = ::access(log.c_str(), F_OK) == 0;
  if (exists) problem = stat_problem(log, false);
  if (problem.empty() && ::access(exists ? log.c_str() : dir.c_str(), W_OK) != 0)
    problem = fmt::format("not writable: {}", std::strerror(errno));
  if (!problem.empty()) {
    findings.push_back({kinds::needs_error, fmt::format("{}: {}: {}: the hook would fail every container", key,
                                                        exists ? log : dir, problem)});
    return;
  }
  findings.push_back({kinds::needs_skipped, fmt::format("audit log {} can be appended to", log)});
}

// The claims directory of [exclusive] gpus: the hook makes it when missing,
// and refuses every GPU container when someone else could write it
// (claims/claim_store.hpp).
void check_claims_dir(const Policy& policy, std::vector<CheckFinding>& findings) {
  if (!policy.exclusive.gpus) return;
  const std::string& dir = policy.exclusive.state_dir;
  std::string key = key_with_origin(policy, "exclusive.state_dir");
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0) {
    findings.push_back({kinds::needs_skipped, fmt::format("claims directory {} will be made (0700) by the first "
                                                          "hook", dir)});
    return;
  }
  std::string problem;
  if (!S_ISDIR(info.st_mode)) problem = "not a directory";
  else if (info.st_uid != ::geteuid() || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    problem = fmt::format("not graft's own (owner {}, mode {:o}); another user could forge claims", info.st_uid,
                          info.st_mode & 07777);
  if (!problem.empty()) {
    findings.push_back({kinds::needs_error, fmt::format("{}: {}: {}: the hook would fail every GPU container",
                                                        key.empty() ? "exclusive.state_dir" : key, dir, problem)});
    return;
  }
  findings.push_back({kinds::needs_skipped, fmt::format("claims directory {} is graft's own", dir)});
}

void check_plugins(const Policy& policy, std::vector<CheckFinding>& findings) {
  auto plugins = load_plugins(policy);  // destroyed at once: only loading and init are checked
  if (!plugins) {
    findings.push_back({kinds::needs_error, fmt::format("plugins: {}: the hook would fail every GPU container",
                                                        plugins.error().message)});
    return;
  }
  std::vector<std::string> names;
  for (const auto& plugin : plugins->plugins()) names.push_back(plugin->name());
  findings.push_back({kinds::needs_skipped, fmt::format("plugins {} load from {}", fmt::join(names, ", "),
                                                        plugin_dir_of(policy))});
}

void check_runtime(const Policy& policy, std::vector<CheckFinding>& findings) {
  const std::string& runtime = policy.runtime.path;
  std::string key = key_with_origin(policy, "runtime.path");
  if (runtime.starts_with("/")) {
    std::string problem = stat_problem(runtime, false);
    if (problem.empty() && ::access(runtime.c_str(), X_OK) != 0) problem = "not executable";
    if (!problem.empty()) {
      findings.push_back({kinds::needs_error, fmt::format("{}: {}: {}: graft-runtime would fail every container",
                                                          key, runtime, problem)});
      return;
    }
    findings.push_back({kinds::needs_skipped, fmt::format("runtime {} is executable", runtime)});
    return;
  }
  // The look-up graft-runtime makes when it runs.
  auto found = find_on_path(runtime, std::getenv("PATH"));
  if (!found) {
    findings.push_back({kinds::needs_warning, fmt::format("{}: '{}' is not on this PATH; graft-runtime looks it "
                                                          "up on its own PATH when it runs", key, runtime)});
    return;
  }
  findings.push_back({kinds::needs_skipped, fmt::format("runtime {} is {}", runtime, *found)});
}

}  // namespace

std::vector<CheckFinding> check_hook_needs(const Policy& policy, bool offline) {
  if (offline)
    return {{kinds::needs_skipped, "not checked (--offline): the audit log's directory, the claims directory, the plugins, the runtime"}};
  std::vector<CheckFinding> findings;
  check_audit_log(policy, findings);
  check_claims_dir(policy, findings);
  check_plugins(policy, findings);
  check_runtime(policy, findings);
  return findings;
}

}  // namespace graft
