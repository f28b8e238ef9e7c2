// SPDX-License-Identifier: Apache-2.0
// graft's command line, with CLI11: every option, footer and example of
// every subcommand (docs/cli.md describes them).
#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>

#include "cdi_command_line.hpp"
#include "command_words.hpp"
#include "completion_tree.hpp"
#include "runtime_command_line.hpp"
#include "graft/engine/completion_script.hpp"
#include "graft/engine/install_dirs.hpp"
#include "graft/base/did_you_mean.hpp"
#include "graft/base/one_line.hpp"
#include "graft/build_config.hpp"

namespace graft::cli {
namespace {

// Each subcommand's options, filled in by the parse.
struct ParsedOptions {
  PlanOptions plan;
  ApplyOptions apply;
  VerifyOptions verify;
  std::string inventory_format = "text";
  std::string hook_stage = "prestart";
  CdiHookOptions cdi_hook;
  CdiCommandOptions cdi;
  std::string cdi_command;  // the `cdi` subcommand given
  std::string policy_command = "check";  // the `policy` subcommand given
  PolicyCheckOptions policy_check;
  PolicyInstallOptions policy_install;
  PolicyTestOptions policy_test;
  PolicyDiffOptions policy_diff;
  std::string policy_show_format = "toml";
  std::string policy_show_key;  // empty: the whole policy
  PolicyImportOptions policy_import;
  LogOptions log;
  RuntimeConfigureOptions runtime_configure;
  std::string completion_shell;
};

// One of `choices`; anything else is an error naming the closest, where
// CLI11's IsMember says only "not in {...}". The description keeps
// IsMember's "{a,b}" form, which the completion tree reads choices from.
CLI::Validator choice_of(std::vector<std::string> choices) {
  std::string list;
  for (const auto& choice : choices) list += (list.empty() ? "" : ",") + choice;
  return CLI::Validator(
      [choices](std::string& value) -> std::string {
        if (std::find(choices.begin(), choices.end(), value) != choices.end()) return {};
        std::vector<std::string_view> names(choices.begin(), choices.end());
        std::string listed;
        for (const auto& choice : choices) listed += (listed.empty() ? "" : ", ") + choice;
        return "'" + value + "' is not one of " + listed + did_you_mean(value, names);
      },
      "{" + list + "}");
}

void add_global_options(CLI::App& app, GlobalOptions& global) {
  global.policy_path = site_policy_path();
  app.add_option("--policy", global.policy_path, "Site policy file")->capture_default_str();
  app.add_option("--policy-dir", global.policy_dirs,
                 "Extra directory searched for included policies (before the installed one)");
  global.node_allow = node_allow_path();
  app.add_option("--node-allow", global.node_allow,
                 "The node's allow file: what widens the policy boundary (\"\": none)")
      ->capture_default_str();
  app.add_option("--log-level", global.log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
}

void add_plan_command(CLI::App& app, PlanOptions& options) {
  auto* command = app.add_subcommand("plan", "Print what a container would get, and why");
  command->footer(
      "Examples:\n"
      "  graft plan --env VAR=VALUE --env VAR2=VALUE   (the variables the vendor policy reads)\n"
      "  graft plan --bundle /run/containerd/io.containerd.runtime.v2.task/k8s.io/3f2a --format json\n"
      "  graft plan --explain --env VAR=VALUE          (then every rule: what it read, what it changed)");
  auto* bundle = command->add_option("--bundle", options.bundle, "OCI bundle directory");
  command->add_option("--id", options.id, "Container id to show (default: audit)");
  auto* env = command->add_option("--env", options.env, "Container env KEY=VALUE (repeatable)")
                  ->type_name("KEY=VALUE");
  command->add_option("--annotation", options.annotations, "Annotation KEY=VALUE (repeatable)")
      ->type_name("KEY=VALUE");
  command->add_option("--rootfs", options.rootfs, "Image rootfs, to pick library directories");
  command->add_flag("--privileged", options.privileged, "Treat the container as privileged");
  command->add_option("--format", options.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  command->add_flag("--record", options.record,
                    "Append this evaluation (planned, refused or error) to the policy's audit log");
  command->add_flag("--explain", options.explain,
                    "After the plan, every rule in the order it ran: where it is, what it read, what it "
                    "changed (JSON: an \"explain\" array)");
  bundle->excludes(env);
}

void add_inventory_command(CLI::App& app, std::string& format) {
  auto* command = app.add_subcommand("inventory", "Show the GPUs, nodes and files found on this host");
  command->footer("Examples:\n  graft inventory\n  graft inventory --format json --policy /etc/graft/graft.toml");
  command->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
}

void add_policy_test_command(CLI::App& policy, PolicyTestOptions& options) {
  auto* command = policy.add_subcommand(
      "test", "Run policy test cases against the site policy (" + doc_page("policy-test.md") + ")");
  command->footer(
      "Examples:\n"
      "  graft policy test /etc/graft/tests\n"
      "  graft --policy site.toml policy test tests/ --junit policy-tests.xml\n"
      "Exit: 0 all cases pass, 1 a case failed (or an error), 2 usage.");
  command->add_option("paths", options.paths,
                      "Case files, or directories of *.toml and *.lua cases (default: tests/ beside the policy)");
  command->add_option("--junit", options.junit, "Also write the results as JUnit XML to FILE");
  command->add_option("--format", options.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))->capture_default_str();
}

void add_policy_diff_command(CLI::App& policy, PolicyDiffOptions& options) {
  auto* command = policy.add_subcommand("diff", "What changes for a set of requests between two policies");
  command->footer(
      "Examples:\n"
      "  graft policy diff --old /etc/graft/graft.toml --new ./graft.toml --cases /etc/graft/tests\n"
      "  graft policy diff --old a.toml --new b.toml --cases tests/ --format json --fail-on-change\n"
      "Exit: 1 when the new policy fails on a case, or with --fail-on-change when any case changed (or on\n"
      "an error); else 0. 2 usage.");
  command->add_option("--old", options.old_policy, "The policy in use")->required();
  command->add_option("--new", options.new_policy, "The changed policy")->required();
  command->add_option("--cases", options.cases, "Case files, or directories of them")->required();
  command->add_option("--format", options.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  command->add_flag("--fail-on-change", options.fail_on_change, "Exit 1 when any case changed");
}

void add_policy_import_command(CLI::App& policy, PolicyImportOptions& options) {
  auto* command = policy.add_subcommand(
      "import", "Write a site policy from another tool's configuration file (" + doc_page("migrating.md") + ")");
  command->footer(
      "Examples (a shipped policy provides each importer, named in " + doc_page("migrating.md") +
      ";\n`graft policy import-NAME` is `graft policy import NAME`):\n"
      "  graft policy import NAME /etc/vendor/config.toml --output /etc/graft/graft.toml\n"
      "  graft policy import-NAME              (the importer's default file, to stdout)\n"
      "Keys without a graft equivalent are listed in the file with the reason; one summary\n"
      "line goes to stderr. The written policy has passed `graft policy check --offline`;\n"
      "run `graft policy check` on the node to check its host roots too.");
  command->add_option("importer", options.importer, "The importer, e.g. the vendor policy's name")->required();
  command->add_option("file", options.file, "The file to import (default: the importer's)");
  command->add_option("--output", options.output, "File to write (replaced whole), or - for stdout")
      ->capture_default_str();
}

void add_policy_check_command(CLI::App& policy, PolicyCheckOptions& options) {
  auto* check = policy.add_subcommand(
      "check", "Validate the policy, its rules on sample requests, what the hook needs and the host roots it names");
  check->footer(
      "Examples:\n"
      "  graft policy check --policy /etc/graft/graft.toml\n"
      "  graft policy check --offline --strict --policy site/graft.toml   (CI: the policy alone, warnings fail)");
  check->add_flag("--offline", options.offline,
                  "Check the policy alone, not the host it names: roots, audit log directory, plugins, runtime");
  check->add_flag("--strict", options.strict,
                  "Fail on every warning too (idle or unreached rules, host warnings): for CI and rollouts");
}

void add_policy_install_command(CLI::App& policy, PolicyInstallOptions& options) {
  auto* install = policy.add_subcommand(
      "install", "Check a new site policy strictly where it will live, then swap it in atomically over --policy");
  install->footer(
      "Examples:\n"
      "  graft policy install ./graft.toml                 (over /etc/graft/graft.toml)\n"
      "  graft --policy /etc/graft/graft.toml policy install new.toml --offline\n"
      "NEW is copied beside the live policy and checked there as `graft policy check --strict`\n"
      "checks it, so its relative includes, rules and drop-ins resolve against the live\n"
      "policy's directory; it then replaces the live policy by rename(2), keeping its mode\n"
      "and owner. When the check fails the live policy is left as it was.");
  install->add_option("new", options.file, "The new site policy file")->required()->check(CLI::ExistingFile);
  install->add_flag("--offline", options.offline, "Check the new policy alone, not against this host");
}

void add_policy_command(CLI::App& app, ParsedOptions& parsed) {
  auto* command = app.add_subcommand("policy", "Work with the site policy");
  command->require_subcommand(1);
  command->footer(
      "Examples:\n"
      "  graft policy check --policy /etc/graft/graft.toml\n"
      "  graft policy install ./graft.toml\n"
      "  graft policy test /etc/graft/tests\n"
      "  graft policy show --format json\n"
      "  graft policy import NAME FILE    (another tool's configuration; " + doc_page("migrating.md") + ")");
  add_policy_check_command(*command, parsed.policy_check);
  add_policy_install_command(*command, parsed.policy_install);
  add_policy_test_command(*command, parsed.policy_test);
  add_policy_diff_command(*command, parsed.policy_diff);
  add_policy_import_command(*command, parsed.policy_import);
  auto* show = command->add_subcommand(
      "show", "Print the merged policy as this node runs it: files, sections with file:line, rules and phases");
  show->footer(
      "Examples:\n"
      "  graft policy show                      (TOML, each value's file:line in a comment)\n"
      "  graft policy show requests.unprivileged   (one key: its value, origin, and what it overrode)\n"
      "  graft policy show data.tenants.team-a --format json\n"
      "  graft policy show --format json --policy /etc/graft/graft.toml");
  show->add_option("key", parsed.policy_show_key,
                   "A dotted key (requests.unprivileged) or table (requests) to show alone");
  show->add_option("--format", parsed.policy_show_format, "toml or json")
      ->check(CLI::IsMember({"toml", "json"}))->capture_default_str();
}

void add_hook_command(CLI::App& app, std::string& stage) {
  auto* command = app.add_subcommand("hook", "OCI hook: give the container in the state on stdin its GPUs");
  command->footer(
      "Examples (the runtime runs it, with the OCI state on stdin; " + doc_page("hooks.md") + "):\n"
      "  \"prestart\": [{\"path\": \"/usr/bin/graft\", \"args\": [\"graft\", \"hook\", \"prestart\"]}]\n"
      "  graft hook createRuntime --policy /etc/graft/graft.toml < state.json");
  command->add_option("stage", stage, "Hook stage the runtime calls us from")
      ->check(CLI::IsMember({"prestart", "createRuntime", "createContainer"}))
      ->capture_default_str();
}

void add_apply_command(CLI::App& app, ApplyOptions& options) {
  auto* command = app.add_subcommand(
      "apply", "Give a running container its GPUs (runtimes without hooks, LXC-style)");
  command->footer(
      "Example:\n"
      "  graft apply --id web1 --pid 4242 --rootfs / --bundle /var/lib/lxc/web1");
  command->add_option("--pid", options.pid, "The container's init process")
      ->required()->check(CLI::PositiveNumber);
  command->add_option("--rootfs", options.rootfs,
                      "The container's root, as a path in its mount namespace")->required();
  auto* bundle = command->add_option("--bundle", options.bundle, "OCI bundle with config.json");
  command->add_option("--id", options.id,
                      "Container id: its cgroup must name it; messages and the audit log use it");
  command->add_flag("--trust-pid", options.trust_pid,
                    "Do not check that --pid is in a cgroup named after --id");
  auto* env = command->add_option("--env", options.env, "Container env KEY=VALUE (repeatable)")
                  ->type_name("KEY=VALUE");
  command->add_option("--annotation", options.annotations, "Annotation KEY=VALUE (repeatable)")
      ->type_name("KEY=VALUE");
  command->add_flag("--privileged", options.privileged, "Treat the container as privileged");
  bundle->excludes(env);
}

void add_verify_command(CLI::App& app, VerifyOptions& options) {
  auto* command = app.add_subcommand(
      "verify", "Compare a running container with its plan: one line per difference");
  command->footer(
      "Examples:\n"
      "  graft verify 3f2a                                 (runc state 3f2a gives pid and bundle)\n"
      "  graft verify 3f2a --runtime-root /run/containerd/runc/k8s.io --format json\n"
      "  graft verify web1 --pid 4242 --bundle /var/lib/lxc/web1\n"
      "Exit: 0 no drift, 1 drift (or a check that cannot be told, or an error), 2 usage, "
      "3 the policy now refuses the container. Nothing is repaired.");
  command->add_option("id", options.id,
                      "Container id (with --pid: the id its cgroup must name)");
  auto* pid = command->add_option("--pid", options.pid, "The container's init process")
                  ->check(CLI::PositiveNumber);
  auto* bundle = command->add_option("--bundle", options.bundle, "OCI bundle with config.json");
  auto* env = command->add_option("--env", options.env, "Container env KEY=VALUE (repeatable)")
                  ->type_name("KEY=VALUE");
  auto* annotation = command->add_option("--annotation", options.annotations,
                                         "Annotation KEY=VALUE (repeatable)")
                         ->type_name("KEY=VALUE");
  auto* privileged = command->add_flag("--privileged", options.privileged,
                                       "Treat the container as privileged");
  auto* trust = command->add_flag("--trust-pid", options.trust_pid,
                                  "Do not check that --pid is in a cgroup named after the id");
  auto* runtime = command->add_option("--runtime", options.runtime,
                                      "OCI runtime asked for the state (default: the policy's [runtime] path)");
  auto* root = command->add_option("--runtime-root", options.runtime_root,
                                   "The runtime's --root (its state directory)");
  command->add_option("--format", options.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  for (auto* needs_pid : {bundle, env, annotation, privileged, trust}) needs_pid->needs(pid);
  for (auto* needs_id : {runtime, root}) needs_id->excludes(pid);
  bundle->excludes(env);
}

void add_log_command(CLI::App& app, LogOptions& options) {
  auto* command =
      app.add_subcommand("log", "Show the audit log's records, filtered (" + doc_page("audit-log.md") + ")");
  command->footer(
      "Examples:\n"
      "  graft log --outcome refused --since 1h       (refusals in the last hour, from [audit] log)\n"
      "  graft log /var/log/graft/audit.jsonl --container 'train-*' --rule tenant-gpu-lease --format json\n"
      "  graft log --since 2026-11-24T06:00:00Z --until 2026-11-24T07:00:00Z");
  command->add_option("file", options.file, "Audit log to read (default: the policy's [audit] log)");
  command->add_option("--container", options.container, "Only container ids matching this glob");
  command->add_option("--outcome", options.outcomes, "Only this outcome (repeatable: any of them)")
      ->check(choice_of({"planned", "applied", "refused", "error"}));
  command->add_option("--rule", options.rule, "Only records with a decision by a rule matching this glob");
  command->add_option("--since", options.since, "Only records at or after: RFC 3339, or a span back (30m, 1h, 2d)")
      ->type_name("TIME");
  command->add_option("--until", options.until, "Only records at or before: RFC 3339, or a span back")
      ->type_name("TIME");
  command->add_option("--format", options.format, "text (one line per record) or json (the records)")
      ->check(CLI::IsMember({"text", "json"}))->capture_default_str();
}

void add_completion_command(CLI::App& app, std::string& shell) {
  auto* command = app.add_subcommand("completion", "Print the shell completion script for bash or zsh");
  command->footer(
      "Examples (the Debian package installs both):\n"
      "  source <(graft completion bash)\n"
      "  graft completion zsh > ~/.zfunc/_graft     (a directory on zsh's fpath)");
  command->add_option("shell", shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
}

void add_version_command(CLI::App& app) {
  app.add_subcommand("version", "Print the graft version and where it looks for what it ships")
      ->footer("Example:\n  graft version        (its first line is what graft --version prints)");
}

// The first word that is not an option (or a global option's value), when
// it names no command (or, after `policy`, no policy command): CLI11 would
// only say "A subcommand is required".
std::optional<std::string> unknown_command(int argc, char** argv, const CLI::App& app) {
  const CLI::App* parent = &app;
  std::string parents;  // "" or "policy ": the commands already matched
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.starts_with("-")) {
      if (takes_global_value(arg)) ++i;
      continue;
    }
    auto commands = parent->get_subcommands([](const CLI::App*) { return true; });
    std::vector<std::string_view> names;
    for (const auto* command : commands) names.push_back(command->get_name());
    auto found = std::find(names.begin(), names.end(), arg);
    if (found == names.end()) {
      std::string list;
      for (auto name : names) list += (list.empty() ? "" : ", ") + std::string(name);
      return "unknown command '" + parents + std::string(arg) + "'" + did_you_mean(arg, names) +
             " (commands: " + list + "; graft " + parents + "--help shows them)";
    }
    const CLI::App* next = commands[static_cast<std::size_t>(found - names.begin())];
    if (next->get_subcommands([](const CLI::App*) { return true; }).empty()) return std::nullopt;
    parent = next;
    parents += std::string(arg) + " ";
  }
  return std::nullopt;
}

// Every command, in `graft --help` order, and what adds it with its options.
struct CommandEntry {
  std::string_view name;
  void (*add)(CLI::App&, ParsedOptions&);
};
const CommandEntry kCommands[] = {
    {"plan", [](CLI::App& app, ParsedOptions& p) { add_plan_command(app, p.plan); }},
    {"inventory", [](CLI::App& app, ParsedOptions& p) { add_inventory_command(app, p.inventory_format); }},
    {"policy", add_policy_command},
    {"hook", [](CLI::App& app, ParsedOptions& p) { add_hook_command(app, p.hook_stage); }},
    {"apply", [](CLI::App& app, ParsedOptions& p) { add_apply_command(app, p.apply); }},
    {"verify", [](CLI::App& app, ParsedOptions& p) { add_verify_command(app, p.verify); }},
    {"cdi-hook", [](CLI::App& app, ParsedOptions& p) { add_cdi_hook_command(app, p.cdi_hook); }},
    {"cdi", [](CLI::App& app, ParsedOptions& p) { add_cdi_command(app, p.cdi); }},
    {"log", [](CLI::App& app, ParsedOptions& p) { add_log_command(app, p.log); }},
    {"runtime", [](CLI::App& app, ParsedOptions& p) { add_runtime_command(app, p.runtime_configure); }},
    {"completion",
     [](CLI::App& app, ParsedOptions& p) { add_completion_command(app, p.completion_shell); }},
    {"version", [](CLI::App& app, ParsedOptions&) { add_version_command(app); }},
};

// Adds the command given, or every command when none is (help, a typo to
// report) or it is `completion` (which prints the whole tree). The hook runs
// on every container start, and building every command's options was a
// twentieth of a `graft plan` process.
void add_commands(CLI::App& app, ParsedOptions& parsed, std::string_view given) {
  bool known = std::any_of(std::begin(kCommands), std::end(kCommands),
                           [&](const CommandEntry& command) { return command.name == given; });
  bool only_given = known && given != "completion";
  for (const CommandEntry& command : kCommands)
    if (!only_given || command.name == given) command.add(app, parsed);
}

// The parsed subcommand, with its options bound.
std::function<Result<int>(const GlobalOptions&)> chosen(const std::string& name,
                                                        const ParsedOptions& parsed) {
  if (name == "plan") return [o = parsed.plan](const GlobalOptions& g) { return run_plan(g, o); };
  if (name == "apply") return [o = parsed.apply](const GlobalOptions& g) { return run_apply(g, o); };
  if (name == "verify") return [o = parsed.verify](const GlobalOptions& g) { return run_verify(g, o); };
  if (name == "hook")
    return [s = parsed.hook_stage](const GlobalOptions& g) { return run_hook(g, s); };
  if (name == "cdi") {
    if (parsed.cdi_command == "refresh")
      return [o = parsed.cdi.refresh](const GlobalOptions& g) { return run_cdi_refresh(g, o); };
    if (parsed.cdi_command == "validate")
      return [f = parsed.cdi.validate_file](const GlobalOptions& g) { return run_cdi_validate(g, f); };
    return [o = parsed.cdi.generate](const GlobalOptions& g) { return run_cdi_generate(g, o); };
  }
  if (name == "cdi-hook")
    return [o = parsed.cdi_hook](const GlobalOptions& g) { return run_cdi_hook(g, o); };
  if (name == "inventory")
    return [f = parsed.inventory_format](const GlobalOptions& g) { return run_inventory(g, f); };
  if (name == "runtime")
    return [o = parsed.runtime_configure](const GlobalOptions& g) { return run_runtime_configure(g, o); };
  if (name == "log") return [o = parsed.log](const GlobalOptions& g) { return run_log(g, o); };
  if (name == "policy") {
    if (parsed.policy_command == "test")
      return [o = parsed.policy_test](const GlobalOptions& g) { return run_policy_test(g, o); };
    if (parsed.policy_command == "diff")
      return [o = parsed.policy_diff](const GlobalOptions& g) { return run_policy_diff(g, o); };
    if (parsed.policy_command == "import")
      return [o = parsed.policy_import](const GlobalOptions& g) { return run_policy_import(g, o); };
    if (parsed.policy_command == "show")
      return [f = parsed.policy_show_format, k = parsed.policy_show_key](const GlobalOptions& g) {
        return run_policy_show(g, f, k);
      };
    if (parsed.policy_command == "install")
      return [o = parsed.policy_install](const GlobalOptions& g) { return run_policy_install(g, o); };
    return [o = parsed.policy_check](const GlobalOptions& g) { return run_policy_check(g, o); };
  }
  return run_version;
}

}  // namespace

CommandLine parse_command_line(int given_argc, char** given_argv) {
  CommandWords words(given_argc, given_argv);
  int argc = words.argc();
  char** argv = words.argv();
  CommandLine line;
  ParsedOptions parsed;
  CLI::App app{"graft: declarative GPU access for OCI containers"};
  app.require_subcommand(1);
  // Global options go before or after the subcommand, as in git and podman:
  // a subcommand passes what it does not know to the app (subcommands
  // inherit this when they are added below).
  app.fallthrough();
  app.set_version_flag("--version", std::string("graft ") + build::version);
  // Usage errors read like graft's other errors (subcommands inherit this).
  app.failure_message([](const CLI::App* failed, const CLI::Error& error) {
    return "graft: " + CLI::FailureMessage::simple(failed, error);
  });
  app.footer(
      "Examples:\n"
      "  graft plan --bundle /run/containerd/.../3f2a --policy /etc/graft/graft.toml\n"
      "  graft inventory --format json\n"
      "  graft policy check\n"
      "  graft policy show --format json\n"
      "Run `graft COMMAND --help` for a command's options and examples.");
  add_global_options(app, line.global);
  add_commands(app, parsed, command_word(argc, argv));
  if (auto unknown = unknown_command(argc, argv, app)) {
    std::fprintf(stderr, "graft: %s\n", one_line(*unknown).c_str());
    line.exit_code = exit_usage;
    return line;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    line.exit_code = code == 0 ? exit_ok : exit_usage;
    return line;
  }
  const CLI::App* command = app.get_subcommands().front();
  if (command->get_name() == "completion") {
    CompletionCommand tree = completion_tree(app);
    tree.name = "graft";  // CLI11 names the app after argv[0], which may be a path
    std::string script = parsed.completion_shell == "zsh" ? zsh_completion(tree) : bash_completion(tree);
    line.command = [script](const GlobalOptions&) -> Result<int> {
      std::fputs(script.c_str(), stdout);
      return exit_ok;
    };
    return line;
  }
  if (command->get_name() == "policy") parsed.policy_command = command->get_subcommands().front()->get_name();
  if (command->get_name() == "cdi") parsed.cdi_command = command->get_subcommands().front()->get_name();
  line.command = chosen(command->get_name(), parsed);
  return line;
}

}  // namespace graft::cli
