// SPDX-License-Identifier: Apache-2.0
// The `graft` subcommands as engine calls: a front end parses a command
// line into these options (plain data), calls one run_ function, and
// returns its exit code (graft/engine/exit_code.hpp). Each call prints its
// own output; an Error comes back for the front end to print as one line.
// What each subcommand does is docs/cli.md.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/engine/cdi_hook_actions.hpp"

namespace graft::commands {

struct GlobalOptions {
  std::string policy_path;
  std::vector<std::string> policy_dirs;
  std::string node_allow;  // the node's allow file (boundary/node_allow.hpp); "" reads none
  std::string log_level = "warn";
};

struct PlanOptions {
  std::string bundle;
  std::string id;
  std::vector<std::string> env;
  std::vector<std::string> annotations;
  std::string rootfs;
  bool privileged = false;
  std::string format = "text";
  bool record = false;  // a dry run leaves the audit log alone unless asked
  bool explain = false;  // also every rule: what it read and what it changed
};

struct ApplyOptions {
  int pid = 0;
  std::string rootfs, bundle, id;
  std::vector<std::string> env, annotations;
  bool privileged = false;
  bool trust_pid = false;  // the caller vouches that pid is the container's
};

// `graft verify` (docs/cli.md): the container by ID (its runtime's state
// gives pid and bundle) or by --pid with the request as for apply.
struct VerifyOptions {
  std::string id;  // with --pid: the id its cgroup must name
  int pid = 0;
  std::string bundle;
  std::vector<std::string> env, annotations;
  bool privileged = false;
  bool trust_pid = false;
  std::string runtime;       // empty: the policy's [runtime] path
  std::string runtime_root;  // the runtime's --root; empty: its default
  std::string format = "text";
};

// `graft cdi-hook`: its stage and the actions its options name
// (graft/engine/cdi_hook_actions.hpp).
struct CdiHookOptions {
  std::string stage = "createRuntime";
  CdiHookActions actions;
};

// `graft cdi generate` and `graft cdi refresh`.
struct CdiGenerateOptions {
  std::string output = "-";
  std::string format = "json";
  std::string cdi_version = "auto";
  std::string kind;  // empty: the policy's [cdi] kind
  std::string host_root;  // read the host mounted here, name its own paths (cdi/host_root.hpp)
  std::string gpu_capabilities;  // "default", "none" or "SET,SET"; empty: the policy's [cdi] gpu_capabilities
};

// `graft log`: the filter's parts as given (times as text; log_command.cpp
// parses them).
struct LogOptions {
  std::string file;  // empty: the policy's [audit] log
  std::string container, rule, since, until;
  std::vector<std::string> outcomes;
  std::string format = "text";
};

// `graft policy check` (policy_check/check_policy.hpp).
struct PolicyCheckOptions {
  bool offline = false;  // the policy alone, not the host it names
  bool strict = false;   // every warning fails the check too
};

// `graft policy install NEW`: NEW checked strictly where it will live, then
// renamed over the site policy (GlobalOptions::policy_path).
struct PolicyInstallOptions {
  std::string file;
  bool offline = false;
};

// `graft policy test` (docs/policy-test.md).
struct PolicyTestOptions {
  std::vector<std::string> paths;  // case files and directories of them
  std::string junit;               // JUnit XML file to write; empty: none
  std::string format = "text";
};

// `graft policy diff`.
struct PolicyDiffOptions {
  std::string old_policy, new_policy;
  std::vector<std::string> cases;  // case files and directories of them
  std::string format = "text";
  bool fail_on_change = false;
};

// `graft policy import NAME [FILE]` (docs/migrating.md); `import-NAME` is
// the same command (import_alias.hpp).
struct PolicyImportOptions {
  std::string importer;  // an importer a shipped policy provides (<dir>/*/import/NAME.toml)
  std::string file;      // empty: the importer's default file
  std::string output = "-";
};

// `graft runtime configure` (docs/runtimes.md): graft's runtime entry in
// an engine's configuration, added or (--remove) taken out.
struct RuntimeConfigureOptions {
  std::string runtime;       // docker, containerd, crio or podman
  std::string config;        // "" for the engine's usual file
  std::string runtime_path;  // "" for the graft-runtime beside this graft
  bool dry_run = false;
  bool remove = false;
  bool set_as_default = false;  // docker only
  bool cdi = false;             // docker only
};

Result<int> run_plan(const GlobalOptions& global, const PlanOptions& options);
Result<int> run_inventory(const GlobalOptions& global, const std::string& format);
Result<int> run_policy_check(const GlobalOptions& global, const PolicyCheckOptions& options);
Result<int> run_policy_install(const GlobalOptions& global, const PolicyInstallOptions& options);
Result<int> run_policy_test(const GlobalOptions& global, const PolicyTestOptions& options);
Result<int> run_policy_diff(const GlobalOptions& global, const PolicyDiffOptions& options);
Result<int> run_policy_import(const GlobalOptions& global, const PolicyImportOptions& options);
// `key`: one dotted key or table alone; empty: the whole policy.
Result<int> run_policy_show(const GlobalOptions& global, const std::string& format, const std::string& key);
Result<int> run_hook(const GlobalOptions& global, const std::string& stage);
Result<int> run_apply(const GlobalOptions& global, const ApplyOptions& options);
Result<int> run_verify(const GlobalOptions& global, const VerifyOptions& options);
Result<int> run_cdi_generate(const GlobalOptions& global, const CdiGenerateOptions& options);
// Writes the spec when the host has a driver and a GPU, else removes graft's
// stale spec at --output with one line and exit 0 (cdi_refresh_command.cpp).
Result<int> run_cdi_refresh(const GlobalOptions& global, const CdiGenerateOptions& options);
Result<int> run_cdi_validate(const GlobalOptions& global, const std::string& file);
Result<int> run_cdi_hook(const GlobalOptions& global, const CdiHookOptions& options);
Result<int> run_log(const GlobalOptions& global, const LogOptions& options);
Result<int> run_runtime_configure(const GlobalOptions& global, const RuntimeConfigureOptions& options);
Result<int> run_version(const GlobalOptions& global);

}  // namespace graft::commands
