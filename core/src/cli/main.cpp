// SPDX-License-Identifier: Apache-2.0
// graft command line: parses arguments, runs one subcommand, and turns every
// Error into exactly one line on stderr with a documented exit code.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "install/install_dirs.hpp"
#include "cli/command_line.hpp"
#include "watchdog/running_note.hpp"
#include "graft/build_config.hpp"

namespace graft::cli {

Result<Policy> load_site_policy(const GlobalOptions& options) {
  RunningNote note("reading the policy " + options.policy_path);
  PolicySearch search;
  search.policy_dirs = options.policy_dirs;
  search.policy_dirs.push_back(install_dirs().policies);
  return load_policy(options.policy_path, search);
}

Result<int> run_version(const GlobalOptions& global) {
  std::printf("graft %s\npolicy   %s\npolicies %s\nplugins  %s\n", build::version,
              global.policy_path.c_str(), install_dirs().policies.c_str(),
              install_dirs().plugins.c_str());
  return exit_ok;
}

namespace {

void setup_logging(const std::string& level) {
  auto logger = spdlog::stderr_logger_st("graft");
  logger->set_pattern("graft: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

int run(int argc, char** argv) {
  CommandLine line = parse_command_line(argc, argv);
  if (!line.command) return line.exit_code;
  setup_logging(line.global.log_level);
  auto result = line.command(line.global);
  if (!result) {
    std::fprintf(stderr, "graft: %s\n", one_line(result.error().message).c_str());
    return exit_error;
  }
  return *result;
}

}  // namespace
}  // namespace graft::cli

int main(int argc, char** argv) { return graft::cli::run(argc, argv); }
