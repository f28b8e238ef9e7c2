// SPDX-License-Identifier: Apache-2.0
// The tables are runc's (main.go, create.go, run.go, restore.go of 1.1.5,
// and 1.2's --pidfd-socket) and crun's (crun.c, create.c, run.c,
// restore.c of 1.8 and later, plus the options argp adds to every parser:
// --help/-?, --usage, --program-name NAME). An option a later version adds
// is unknown here, and a create-like command that has one is refused until
// it is added: a value taken for the container id would be worse.
#include "runtime_grammar.hpp"

#include <cstdlib>
#include <memory>

namespace graft::runtime {
namespace {

using Role = OptionRole;

constexpr RuntimeOption kRuncGlobal[] = {
    {"debug"},         {"log", 0, true},  {"log-format", 0, true}, {"root", 0, true},
    {"criu", 0, true}, {"systemd-cgroup"}, {"rootless", 0, true},   {"help", 'h'},
    {"version", 'v'},
};

constexpr RuntimeOption kRuncCreate[] = {
    {"bundle", 'b', true, Role::bundle}, {"console-socket", 0, true}, {"pidfd-socket", 0, true},
    {"pid-file", 0, true},               {"no-pivot"},                {"no-new-keyring"},
    {"preserve-fds", 0, true},           {"help", 'h', false, Role::help},
};

constexpr RuntimeOption kRuncRun[] = {
    {"bundle", 'b', true, Role::bundle}, {"console-socket", 0, true}, {"pidfd-socket", 0, true},
    {"detach", 'd'},                     {"keep"},                    {"pid-file", 0, true},
    {"no-subreaper"},                    {"no-pivot"},                {"no-new-keyring"},
    {"preserve-fds", 0, true},           {"help", 'h', false, Role::help},
};

constexpr RuntimeOption kRuncRestore[] = {
    {"console-socket", 0, true}, {"image-path", 0, true},   {"work-path", 0, true},
    {"tcp-established"},         {"ext-unix-sk"},           {"shell-job"},
    {"file-locks"},              {"manage-cgroups-mode", 0, true},
    {"bundle", 'b', true, Role::bundle},
    {"detach", 'd'},             {"pid-file", 0, true},     {"no-subreaper"},
    {"no-pivot"},                {"empty-ns", 0, true},     {"auto-dedup"},
    {"lazy-pages"},              {"lsm-profile", 0, true},  {"lsm-mount-context", 0, true},
    {"help", 'h', false, Role::help},
};

constexpr RuntimeOption kCrunGlobal[] = {
    {"debug"},          {"cgroup-manager", 0, true}, {"systemd-cgroup"},        {"log", 0, true},
    {"log-format", 0, true}, {"log-level", 0, true}, {"root", 0, true},        {"rootless", 0, true},
    {"version", 'v'},   {"", 'V'},                   {"help", '?'},             {"usage"},
    {"program-name", 0, true},
};

constexpr RuntimeOption kCrunCreate[] = {
    {"bundle", 'b', true, Role::bundle}, {"config", 'f', true, Role::config}, {"console-socket", 0, true},
    {"preserve-fds", 0, true},           {"no-pivot"},                        {"pid-file", 0, true},
    {"no-subreaper"},                    {"no-new-keyring"},                  {"help", '?', false, Role::help},
    {"usage", 0, false, Role::help},     {"program-name", 0, true},
};

constexpr RuntimeOption kCrunRun[] = {
    {"bundle", 'b', true, Role::bundle}, {"config", 'f', true, Role::config}, {"detach", 'd'},
    {"console-socket", 0, true},         {"preserve-fds", 0, true},           {"pid-file", 0, true},
    {"keep"},                            {"no-subreaper"},                    {"no-new-keyring"},
    {"no-pivot"},                        {"help", '?', false, Role::help},    {"usage", 0, false, Role::help},
    {"program-name", 0, true},
};

constexpr RuntimeOption kCrunRestore[] = {
    {"bundle", 'b', true, Role::bundle}, {"image-path", 0, true},  {"work-path", 0, true},
    {"tcp-established"},                 {"tcp-close"},            {"ext-unix-sk"},
    {"shell-job"},                       {"detach", 'd'},          {"pid-file", 0, true},
    {"console-socket", 0, true},         {"file-locks"},           {"manage-cgroups-mode", 0, true},
    {"network-lock"},                    {"lsm-profile", 0, true}, {"lsm-mount-context", 0, true},
    {"help", '?', false, Role::help},    {"usage", 0, false, Role::help}, {"program-name", 0, true},
};

constexpr RuntimeGrammar kRunc{"runc", OptionSyntax::go_flag, kRuncGlobal, kRuncCreate, kRuncRun, kRuncRestore};
constexpr RuntimeGrammar kCrun{"crun", OptionSyntax::getopt_long, kCrunGlobal, kCrunCreate, kCrunRun,
                               kCrunRestore};
constexpr RuntimeGrammar kUnknown{"the real runtime", OptionSyntax::exact, kRuncGlobal, kRuncCreate, kRuncRun,
                                  kRuncRestore};

// `name` is `family`, or `family` followed by '.' or '-' and more.
bool named(std::string_view name, std::string_view family) {
  if (!name.starts_with(family)) return false;
  return name.size() == family.size() || name[family.size()] == '.' || name[family.size()] == '-';
}

std::string_view file_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The path with every symlink resolved; `path` itself when that fails.
std::string resolved(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  return real ? std::string(real.get()) : path;
}

}  // namespace

const RuntimeGrammar& runtime_grammar(const std::string& path) {
  std::string real = resolved(path);
  std::string_view name = file_name(real);
  if (named(name, "runc")) return kRunc;
  if (named(name, "crun") || name == "krun") return kCrun;
  return kUnknown;
}

const RuntimeGrammar& runc_grammar() { return kRunc; }

std::span<const RuntimeOption> creating_command_options(const RuntimeGrammar& grammar, std::string_view command) {
  if (command == "create") return grammar.create;
  if (command == "run") return grammar.run;
  if (command == "restore") return grammar.restore;
  return {};
}

bool creates_container(std::string_view command) {
  return command == "create" || command == "run" || command == "restore";
}

}  // namespace graft::runtime
