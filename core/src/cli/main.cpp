// graft command line: parses arguments, runs one subcommand, and turns every
// Error into exactly one line on stderr with a documented exit code.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>

#include "files/install_dirs.hpp"
#include "cli/commands.hpp"
#include "fault/running_note.hpp"
#include "graft/build_config.hpp"

namespace graft::cli {

Result<Policy> load_site_policy(const GlobalOptions& options) {
  RunningNote note("reading the policy " + options.policy_path);
  PolicySearch search;
  search.policy_dirs = options.policy_dirs;
  search.policy_dirs.push_back(install_dirs().policies);
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
  // Global options go before or after the subcommand, as in git and podman:
  // a subcommand passes what it does not know to the app (subcommands
  // inherit this when they are added below).
  app.fallthrough();
  app.set_version_flag("--version", std::string("graft ") + build::version);
  app.footer(
      "Examples:\n"
      "  graft plan --bundle /run/containerd/.../3f2a --policy /etc/graft/graft.toml\n"
      "  graft inventory --format json\n"
      "  graft policy check\n"
      "Run `graft COMMAND --help` for a command's options and examples.");
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
  app.add_subcommand("version", "Print the graft version and where it looks for what it ships")
      ->footer("Example:\n  graft version        (its first line is what graft --version prints)")
      ->callback([&options] {
        std::printf("graft %s\npolicy   %s\npolicies %s\nplugins  %s\n", build::version,
                    options.policy_path.c_str(), install_dirs().policies.c_str(),
                    install_dirs().plugins.c_str());
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
