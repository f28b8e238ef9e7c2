// The `graft` subcommands. Each registers its options on the CLI11 app and
// returns an exit code when run; errors are printed by the caller, once.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/error.hpp"
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

// `text` with every control character escaped (\n, \r, \xNN), so an error or
// refusal that quotes a container's env value, id or path stays one line.
inline std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
  return out;
}

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

// Evaluates `request` and applies its plan to the running container
// (request.pid, request.rootfs): shared by `graft hook` and `graft apply`.
Result<int> apply_request(const GlobalOptions& global, const Request& request);

}  // namespace graft::cli
