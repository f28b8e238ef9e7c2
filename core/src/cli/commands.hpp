// The `graft` subcommands. Each registers its options on the CLI11 app and
// returns an exit code when run; errors are printed by the caller, once.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "apply/container_process.hpp"
#include "graft/base/error.hpp"
#include "graft/base/one_line.hpp"
#include "fault/deadline.hpp"
#include "plan/plan.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft::cli {

// Documented in docs/cli.md; scripts rely on these numbers.
enum ExitCode : int {
  exit_ok = 0,
  exit_error = 1,    // policy, discovery, rule or I/O failure
  exit_usage = 2,    // bad command line
  exit_refused = 3,  // the policy refused the container
};

struct GlobalOptions {
  std::string policy_path;
  std::vector<std::string> policy_dirs;
  std::string log_level = "warn";
};

// Loads the site policy named by the global options (the edge where search
// paths are decided).
Result<Policy> load_site_policy(const GlobalOptions& options);

// Registers a subcommand; the returned function runs it after parsing.
using Runner = std::function<Result<int>()>;
Runner add_plan_command(CLI::App& app, const GlobalOptions& options);
Runner add_inventory_command(CLI::App& app, const GlobalOptions& options);
Runner add_policy_command(CLI::App& app, const GlobalOptions& options);
Runner add_hook_command(CLI::App& app, const GlobalOptions& options);
Runner add_apply_command(CLI::App& app, const GlobalOptions& options);

// Prints the plan's refusal as one stderr line naming the rule; returns
// exit_refused. `plan` must carry a refusal.
int report_refusal(const Plan& plan);

// The container being applied to: its init, held by a pidfd since the
// command first read its pid, and who asks (hook or `graft apply`).
struct Container {
  const ContainerProcess& process;
  ApplyCaller caller;
};

// Evaluates `request` and applies its plan to the running container
// (container.process, request.rootfs): shared by `graft hook` and `graft
// apply`. `deadline` (armed from `policy`) is disarmed before the audit
// record.
Result<int> apply_request(const Policy& policy, Deadline& deadline, const Request& request,
                          const Container& container);

}  // namespace graft::cli
