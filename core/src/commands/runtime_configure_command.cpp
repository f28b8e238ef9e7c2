// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure`: graft's runtime in a container engine's
// configuration (runtime_config/), written, shown as a diff (--dry-run), or
// taken out (--remove). One line per file on stderr says what happened.
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "commands/command_steps.hpp"
#include "graft/engine/install_dirs.hpp"
#include "runtime_config/runtime_setup.hpp"
#include "runtime_config/unified_diff.hpp"

namespace graft::commands {
namespace {

using runtime_config::RuntimeEntry;
using runtime_config::SetupRequest;

// The binary the engine runs: the one given, else graft-runtime beside graft.
Result<std::string> runtime_binary(const RuntimeConfigureOptions& options) {
  std::string path = options.runtime_path;
  if (path.empty()) {
    std::string dir = executable_dir();
    if (dir.empty()) return make_error("cannot tell where graft is (/proc/self/exe): give --runtime-path");
    path = dir + "/graft-runtime";
  }
  if (!path.starts_with('/')) return make_error("--runtime-path {}: the engine needs an absolute path", path);
  // --remove compares with what was written, which needs no binary there.
  if (!options.remove && ::access(path.c_str(), X_OK) != 0)
    return make_error("{}: not an executable file; give --runtime-path", path);
  return path;
}

Result<SetupRequest> setup_request(const GlobalOptions& global, const RuntimeConfigureOptions& options) {
  if (options.runtime != "docker" && (options.set_as_default || options.cdi))
    return make_error("--set-as-default and --cdi are for --runtime docker only");
  SetupRequest request{options.runtime, options.config, RuntimeEntry{}, options.remove};
  auto binary = runtime_binary(options);
  if (!binary) return binary.error();
  request.entry.binary = *binary;
  request.entry.set_as_default = options.set_as_default;
  request.entry.cdi = options.cdi;
  // Only Docker passes a runtime its arguments; graft-runtime reads the site
  // policy when it is given none.
  if (options.runtime == "docker" && global.policy_path != site_policy_path())
    request.entry.arguments = {"--graft-policy",
                               std::filesystem::absolute(global.policy_path).lexically_normal().string()};
  return request;
}

void print_outcome(const runtime_config::Setup& setup, const RuntimeConfigureOptions& options) {
  const auto& change = setup.change;
  if (options.dry_run && change.changes())
    std::fputs(runtime_config::unified_diff(change.path, change.before, change.after).c_str(), stdout);
  const char* would = options.dry_run ? "would be " : "";
  if (!change.changes())
    std::fprintf(stderr, "graft: %s: %s; nothing to change\n", change.shown.c_str(),
                 options.remove ? "holds nothing graft added" : "already set up for graft");
  else if (!change.after)
    std::fprintf(stderr, "graft: %s: %sremoved\n", change.shown.c_str(), would);
  else
    std::fprintf(stderr, "graft: %s: %s%s\n", change.shown.c_str(), would,
                 !change.before ? "written" : options.remove ? "edited, graft's runtime taken out"
                                                       : "edited, graft's runtime added");
}

}  // namespace

Result<int> run_runtime_configure(const GlobalOptions& global, const RuntimeConfigureOptions& options) {
  auto request = setup_request(global, options);
  if (!request) return request.error();
  if (options.runtime != "docker" && global.policy_path != site_policy_path())
    std::fprintf(stderr, "graft: %s passes graft-runtime no arguments, so it reads %s, not %s; for another "
                         "policy give --runtime-path a wrapper (%s)\n",
                 options.runtime.c_str(), site_policy_path().c_str(), global.policy_path.c_str(),
                 doc_page("runtimes.md").c_str());
  auto setup = runtime_config::plan_setup(*request);
  if (!setup) return setup.error();
  if (!options.dry_run)
    if (auto applied = runtime_config::apply_change(setup->change); !applied) return applied.error();
  print_outcome(*setup, options);
  for (const auto& kept : setup->kept) std::fprintf(stderr, "graft: %s\n", kept.c_str());
  if (!options.dry_run && !setup->next_step.empty()) std::fprintf(stderr, "graft: %s\n", setup->next_step.c_str());
  return exit_ok;
}

}  // namespace graft::commands
