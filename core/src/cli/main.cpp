// graft command line: parses arguments, runs one subcommand, and turns every
// Error into exactly one line on stderr with a documented exit code.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>

#include "cli/commands.hpp"
#include "fault/running_note.hpp"
#include "graft/build_config.hpp"

namespace graft::cli {

Result<Policy> load_site_policy(const GlobalOptions& options) {
  RunningNote note("reading the policy " + options.policy_path);
  PolicySearch search;
  search.policy_dirs = options.policy_dirs;
  search.policy_dirs.push_back(build::policy_dir);
  return load_policy(options.policy_path, search);
}

namespace {

void setup_logging(const std::string& level) {
  auto logger = spdlog::stderr_logger_st("graft");
  logger->set_pattern("graft: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

int run(int argc, char** argv) {
  CLI::App app{"graft: declarative GPU access for OCI containers"};
  app.require_subcommand(1);
  GlobalOptions options;
  options.policy_path = std::string(build::sysconf_dir) + "/graft.toml";
  app.add_option("--policy", options.policy_path, "Site policy file")->capture_default_str();
  app.add_option("--policy-dir", options.policy_dirs,
                 "Extra directory searched for included policies (before the installed one)");
  app.add_option("--log-level", options.log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  std::map<std::string, Runner> runners{{"plan", add_plan_command(app, options)},
                                        {"inventory", add_inventory_command(app, options)},
                                        {"policy", add_policy_command(app, options)},
                                        {"hook", add_hook_command(app, options)},
                                        {"apply", add_apply_command(app, options)}};
  app.add_subcommand("version", "Print the graft version")->callback([] {
    std::printf("graft %s\n", build::version);
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? exit_ok : exit_usage;
  }
  setup_logging(options.log_level);
  for (auto* command : app.get_subcommands()) {
    auto runner = runners.find(command->get_name());
    if (runner == runners.end()) continue;
    auto result = runner->second();
    if (!result) {
      std::fprintf(stderr, "graft: %s\n", one_line(result.error().message).c_str());
      return exit_error;
    }
    return *result;
  }
  return exit_ok;
}

}  // namespace
}  // namespace graft::cli

int main(int argc, char** argv) { return graft::cli::run(argc, argv); }
