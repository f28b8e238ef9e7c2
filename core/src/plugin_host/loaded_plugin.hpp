// SPDX-License-Identifier: Apache-2.0
// One loaded plugin: the dlopen handle, its validated descriptor, its host
// services table and its state. Owns all four: destruction calls the plugin's
// destroy, then dlclose. Every call into plugin code goes through here and is
// guarded so a failure (status, exception) becomes an Error naming the file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/plugin.h"
#include "plan/plan.hpp"
#include "plugin_host/host_services.hpp"
#include "plugin_host/plugin_file.hpp"

namespace graft {

// Where actions are applied; mirrors graft_apply_context.
struct ApplyTarget {
  std::string container_id;
  int rootfs_fd = -1;  // O_PATH fd of the container root, owned by the caller
  std::string rootfs;  // for messages
  int pid = 0;
  std::uint32_t uid = 0, gid = 0;  // owner for what plugins create in the rootfs (uid_t)
  int pidfd = -1;        // of the container's init, owned by the caller; -1 when unknown
  int source_root_fd = -1;  // O_PATH fd of the driver root, owned by the caller; -1: "/"
  std::string source_root;  // its host path ("" with -1)
};

// One finding of a plugin's verify (graft_finding, copied).
enum class FindingKind { drift, unknown, not_checked };
struct PluginFinding {
  FindingKind kind = FindingKind::drift;
  std::string expected;
  std::string found;
};

class LoadedPlugin {
 public:
  // Takes ownership of `handle`. `descriptor` must already be validated
  // (see plugin_loader.cpp); `kinds` are its claimed kinds, converted.
  LoadedPlugin(std::string path, void* handle, const graft_plugin* descriptor,
               std::vector<ActionKind> kinds);
  ~LoadedPlugin();
  LoadedPlugin(const LoadedPlugin&) = delete;
  LoadedPlugin& operator=(const LoadedPlugin&) = delete;

  // Calls the plugin's init once; on failure the Error carries its message.
  Status init(const std::string& config_json);
  // The three phases of applying a plan (see plugin.h): prepare in the
  // host's mount namespace, apply inside the container's, finish once after
  // all actions. `index` is the action's position in the plan.
  Status prepare(const Action& action, std::uint32_t index, const ApplyTarget& target);
  Status apply(const Action& action, std::uint32_t index, const ApplyTarget& target);
  Status finish(const ApplyTarget& target);
  // `graft verify` (ABI 1.3): whether the plugin has a verify function, and
  // its findings for one action (none: the action holds).
  bool verifies() const;
  Result<std::vector<PluginFinding>> verify(const Action& action, std::uint32_t index,
                                            const ApplyTarget& target);

  const std::string& name() const { return name_; }
  // The warnings the plugin logged since the last call (host_services.hpp).
  std::vector<std::string> take_warnings() { return services_.take_warnings(); }
  const std::string& path() const { return path_; }
  const std::string& version() const { return version_; }
  const std::vector<ActionKind>& kinds() const { return kinds_; }
  bool claims(ActionKind kind) const;

  // Keeps the O_PATH fd the plugin was loaded through (/proc/self/fd/N) open
  // until after dlclose. glibc's dlopen first matches an already loaded
  // object by its name string: were N closed and reused for the next plugin,
  // dlopen("/proc/self/fd/N") would hand back this plugin again.
  void keep_loaded_from(UniqueFd file) { file_ = std::move(file); }

 private:
  // "plugin FILE", with the action's kind and target when there is one.
  std::string where(const Action* action) const;
  // Runs `call` (plugin code, answering a Status without context) with the
  // crash handlers installed and the running note naming `phase` and
  // `action`; an escaping exception becomes an error, and any error is
  // prefixed with where(action).
  template <class Call>
  Status guarded(const char* phase, const Action* action, Call&& call);
  std::string last_error_message();
  // The failed call's error: last_error's message and the errno the plugin
  // left. Called first thing after the call returned.
  Error failure();
  using ActionCall = graft_status (*)(void*, const graft_action*, const graft_apply_context*);
  Status call_action(ActionCall call, const char* phase, const Action& action,
                     std::uint32_t index, const ApplyTarget& target);

  std::string path_, name_, version_;
  UniqueFd file_;  // destroyed after the destructor's dlclose
  void* handle_;
  const graft_plugin* descriptor_;
  std::vector<ActionKind> kinds_;
  HostServices services_;
  void* state_ = nullptr;
  bool initialised_ = false;  // destroy is owed once init has been called
};

}  // namespace graft
