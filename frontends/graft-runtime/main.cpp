// SPDX-License-Identifier: Apache-2.0
// graft-runtime: an OCI runtime in front of the real one. It reads the site
// policy (--graft-policy FILE among the global options, else the one graft
// reads), reads its command line as the policy's runtime will, and before
// `create`, `run` or `restore` prepares the bundle for graft; then it
// becomes the real runtime (execve) with the arguments it was given, less
// its own. Every error is one line on stderr and in runc's --log file.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "graft/build_config.hpp"
#include "graft/engine/deadline.hpp"
#include "graft/engine/exit_code.hpp"
#include "graft/engine/install_dirs.hpp"
#include "graft/engine/logging.hpp"
#include "graft/engine/site_policy.hpp"
#include "prepare_bundle.hpp"
#include "systemd_cgroup_option.hpp"
#include "systemd_links.hpp"
#include "graft/base/systemd_booted.hpp"
#include "real_runtime.hpp"
#include "runtime_command.hpp"
#include "runtime_command_line.hpp"
#include "runtime_grammar.hpp"
#include "runtime_log.hpp"
#include "bundle_config.hpp"

namespace graft::runtime {
namespace {

std::string absolute(const std::string& path) {
  std::error_code error;
  auto full = std::filesystem::absolute(path, error);
  return error ? path : full.lexically_normal().string();
}

// --graft-policy, else the site policy graft reads; absolute, since the
// hook graft-runtime inserts runs from the bundle directory.
std::string policy_path(const RuntimeCommandLine& line) {
  return absolute(line.policy_path.empty() ? default_site_policy_path() : line.policy_path);
}

Result<SitePolicy> load_runtime_policy(const RuntimeCommandLine& line) {
  return load_site_policy(PolicyLocation{policy_path(line), {}});
}

// The graft binary the hook runs: the one installed beside graft-runtime.
Result<GraftHook> graft_hook(const RuntimeCommandLine& line) {
  std::string graft = executable_dir() + "/graft";
  if (::access(graft.c_str(), X_OK) != 0)
    return make_error("no graft binary beside graft-runtime (looked for {})", graft);
  return GraftHook{graft, policy_path(line)};
}

// Before a create: the bundle prepared; the exit code when the command
// must end here (a refusal), 0 to go on.
Result<int> prepare(const SitePolicy& policy, const RuntimeCommandLine& line, const RuntimeGrammar& grammar,
                    const RuntimeCommand& command) {
  auto hook = graft_hook(line);
  if (!hook) return hook.error();
  auto files = bundle_files(command.bundle, command.config);
  if (!files) return files.error();
  auto prepared = prepare_bundle(policy, *files, command.container_id, *hook);
  if (!prepared) return prepared.error();
  if (uses_systemd_cgroup(line.runtime_args, grammar) && systemd_booted())
    if (auto linked = link_spec_devices(prepared->spec_devices); !linked) return linked.error();
  if (prepared->outcome == BundleOutcome::untouched || prepared->outcome == BundleOutcome::edited) return 0;
  report_runtime_error(line, prepared->refusal);
  return prepared->outcome == BundleOutcome::refused ? exit_refused : exit_usage;
}

// A policy that stops loading (an admin's broken edit) must not strand the
// containers that exist: only a create needs it, so every other command
// goes to the default runtime, with the error still reported.
Result<std::string> default_runtime(const RuntimeCommandLine& line, const Error& error) {
  auto command = read_runtime_command(line.runtime_args, runc_grammar());
  if (!command || command->creates) return error;
  report_runtime_error(line, error.message + "; passing '" + command->command + "' to " + default_runtime_path() +
                                 ", the default runtime");
  return find_real_runtime(default_runtime_path());
}

// Everything before the hand-over, under the policy's deadline (rules run
// here as under `graft plan`); the real runtime's path, or the exit code.
// The command line is read as the policy's runtime reads it; a create that
// cannot be read with certainty ends here.
Result<std::string> before_exec(const RuntimeCommandLine& line, int& exit_code) {
  Deadline deadline(default_deadline_ms());  // armed before anything is read
  auto policy = load_runtime_policy(line);
  if (!policy) return default_runtime(line, policy.error());
  deadline.limit_to(policy->deadline_ms());
  auto real = find_real_runtime(policy->runtime_path());
  if (!real) return real.error();
  const RuntimeGrammar& grammar = runtime_grammar(*real);
  auto command = read_runtime_command(line.runtime_args, grammar);
  if (!command) {
    report_runtime_error(line, command.error().message);
    exit_code = exit_usage;
  } else if (command->creates) {
    auto stop = prepare(*policy, line, grammar, *command);
    if (!stop) return stop.error();
    exit_code = *stop;
  }
  return real;
}  // the deadline goes here: ITIMER_REAL would outlive execve

// The help text, in two parts around the installed runtimes.md page.
constexpr const char* kHelpUsage =
    "graft-runtime: an OCI runtime that gives GPU containers graft's plan, in front of the real one\n"
    "\n"
    "It runs runc unless the policy's [runtime] path names another. On create, run and restore it\n"
    "gives a bundle that asks for GPUs graft's hook, or the plan itself ([runtime] mode =\n"
    "\"declarative\"); a bundle that asks for nothing is left untouched. Then it becomes the real\n"
    "runtime with the same arguments, less its own. A create whose options it cannot read as that\n"
    "runtime reads them is refused (exit 2).\n"
    "\n"
    "Usage: graft-runtime [--graft-policy FILE] [RUNTIME GLOBAL OPTIONS] COMMAND [ARGS...]\n"
    "\n"
    "Options:\n"
    "  --graft-policy FILE   Site policy (default: the one graft reads, /etc/graft/graft.toml);\n"
    "                        only before the command, as Docker's runtimeArgs pass it\n"
    "  --help, -h            This text (alone; with a command, the real runtime's help)\n"
    "  --version, -v         graft-runtime's version (alone)\n"
    "Every other option and argument goes to the real runtime as given (";
constexpr const char* kHelpExamples =
    ").\n"
    "\n"
    "Examples:\n"
    "  /etc/docker/daemon.json:\n"
    "    {\"runtimes\": {\"graft\": {\"path\": \"/usr/bin/graft-runtime\",\n"
    "                            \"runtimeArgs\": [\"--graft-policy\", \"/etc/graft/graft.toml\"]}}}\n"
    "  docker run --runtime graft -e NVIDIA_VISIBLE_DEVICES=0 IMAGE nvidia-smi\n"
    "  ctr run --runc-binary /usr/bin/graft-runtime --env NVIDIA_VISIBLE_DEVICES=0 IMAGE ID\n";

// --help or --version as the only argument is graft-runtime's own (and
// needs no policy, so a man page can be made from it on any machine).
bool answered_alone(const std::vector<std::string>& args) {
  if (args.size() != 1) return false;
  if (args[0] == "--help" || args[0] == "-h") {
    std::printf("%s%s%s", kHelpUsage, doc_page("runtimes.md").c_str(), kHelpExamples);
    return true;
  }
  if (args[0] == "--version" || args[0] == "-v") {
    std::printf("graft-runtime %s\n", build::version);
    return true;
  }
  return false;
}

int run(int argc, char** argv) {
  setup_logging("graft-runtime", "warn");
  std::vector<std::string> args(argv + 1, argv + argc);
  if (answered_alone(args)) return 0;
  auto line = parse_runtime_command_line(args);
  if (!line) {
    report_runtime_error(RuntimeCommandLine{}, line.error().message);
    return exit_usage;
  }
  int exit_code = 0;
  auto real = before_exec(*line, exit_code);
  if (!real) {
    report_runtime_error(*line, real.error().message);
    return exit_error;
  }
  if (exit_code != 0) return exit_code;
  report_runtime_error(*line, exec_real_runtime(*real, line->runtime_args).message);
  return exit_error;
}

}  // namespace
}  // namespace graft::runtime

int main(int argc, char** argv) { return graft::runtime::run(argc, argv); }
