// SPDX-License-Identifier: Apache-2.0
// Shell completion (`graft completion bash|zsh`): the scripts come from the
// command tree, and a real bash (and zsh, where installed) completes
// commands, subcommands and option values with them.
#include <catch2/catch.hpp>

#include <fstream>

#include "graft/engine/completion_script.hpp"
#include "temp_dir.hpp"
#include "run_command.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

CompletionCommand small_tree() {
  CompletionOption format{{"--format"}, true, {"text", "json"}, "text or json"};
  CompletionOption policy{{"--policy"}, true, {}, "Site policy file"};
  CompletionCommand check{"check", "Validate", {}, {}, {}};
  CompletionCommand policy_command{"policy", "Work with the policy", {}, {}, {check}};
  CompletionCommand plan{"plan", "Plan", {format}, {}, {}};
  return CompletionCommand{"tool", "A tool", {policy}, {}, {plan, policy_command}};
}

// The words bash's completion offers for `line` (the cursor at its end;
// a trailing space starts a new word), with `script` loaded.
CommandResult bash_completes(const std::string& script, const std::string& line) {
  fixture::TempDir dir("graft-completion-");
  std::string file = dir.path() + "/graft.bash";
  std::ofstream(file) << script;
  return run_command({"/bin/bash", "-c",
                      "source \"$1\"; read -ra COMP_WORDS <<<\"$2\"; [[ $2 == *' ' ]] && COMP_WORDS+=('');"
                      "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _graft; printf '%s\\n' \"${COMPREPLY[@]}\"",
                      "bash", file, line});
}

std::string graft_script(const std::string& shell) {
  auto result = run_graft({"completion", shell});
  REQUIRE(result.exit_code == 0);
  return result.out;
}

}  // namespace

TEST_CASE("the bash script names each command path and an option's choices", "[completion]") {
  std::string script = bash_completion(small_tree());
  CHECK_THAT(script, Catch::Contains("\"tool plan\"|\"tool policy\"|\"tool policy check\") node="));
  CHECK_THAT(script, Catch::Contains("\"tool plan --format\") COMPREPLY=($(compgen -W \"text json\""));
  CHECK_THAT(script, Catch::Contains("*\" --policy\") COMPREPLY=($(compgen -f"));
  CHECK_THAT(script, Catch::EndsWith("complete -F _tool tool\n"));
}

TEST_CASE("a name with characters a shell would read is left out of the script", "[completion]") {
  CompletionCommand tree = small_tree();
  tree.subcommands.push_back(CompletionCommand{"x;rm -rf", "bad", {}, {}, {}});
  tree.options.push_back(CompletionOption{{"--$(id)"}, false, {}, "bad"});
  for (const std::string& script : {bash_completion(tree), zsh_completion(tree)}) {
    CHECK_THAT(script, !Catch::Contains("rm -rf") && !Catch::Contains("$(id)"));
  }
}

TEST_CASE("bash completes graft pol to policy", "[completion]") {
  auto result = bash_completes(graft_script("bash"), "graft pol");
  INFO(result.err);
  CHECK(result.out == "policy\n");
}

TEST_CASE("bash completes the subcommands after graft policy", "[completion]") {
  auto result = bash_completes(graft_script("bash"), "graft policy ");
  INFO(result.err);
  CHECK_THAT(result.out, Catch::Contains("check\n"));
  CHECK_THAT(result.out, !Catch::Contains("plan\n"));
}

TEST_CASE("bash completes an option's values and a global option's after a command", "[completion]") {
  std::string script = graft_script("bash");
  CHECK(bash_completes(script, "graft log --outcome re").out == "refused\n");
  CHECK(bash_completes(script, "graft plan --format ").out == "text\njson\n");
  CHECK(bash_completes(script, "graft --policy /etc/graft/graft.toml inventory --log-level w").out == "warn\n");
  CHECK(bash_completes(script, "graft completion ").out == "bash\nzsh\n");
}

TEST_CASE("bash offers no file names after an option whose value is KEY=VALUE or a time", "[completion]") {
  fixture::TempDir dir("graft-completion-files-");
  std::ofstream(dir.path() + "/a-file") << "";
  std::string script = graft_script("bash");
  for (std::string option : {"plan --env", "plan --annotation", "log --since", "log --until"}) {
    INFO(option);
    CHECK(bash_completes(script, "graft " + option + " " + dir.path() + "/a").out == "\n");
  }
  CHECK(bash_completes(script, "graft plan --rootfs " + dir.path() + "/a").out == dir.path() + "/a-file\n");
}

TEST_CASE("bash completes graft verify's options and its format's values", "[completion][verify]") {
  std::string script = graft_script("bash");
  CHECK(bash_completes(script, "graft ver").out == "verify\nversion\n");
  CHECK(bash_completes(script, "graft verify --runtime-r").out == "--runtime-root\n");
  CHECK(bash_completes(script, "graft verify c1 --format ").out == "text\njson\n");
}

TEST_CASE("every command graft --help lists is completed by bash", "[completion]") {
  auto help = run_graft({"--help"});
  std::string offered = bash_completes(graft_script("bash"), "graft ").out;
  std::istringstream in(help.out.substr(help.out.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  int commands = 0;
  while (std::getline(in, line) && line.starts_with("  ")) {
    std::string name = line.substr(2, line.find(' ', 2) - 2);
    INFO(name);
    CHECK_THAT(offered, Catch::Contains("\n" + name + "\n") || Catch::StartsWith(name + "\n"));
    ++commands;
  }
  CHECK(commands >= 10);
}

TEST_CASE("zsh completes graft's commands and a subcommand's with the same tree", "[completion]") {
  auto found = run_command({"/bin/sh", "-c", "command -v zsh"});
  if (found.exit_code != 0) {
    GRAFT_SKIP("zsh is not installed (tests/scripts/install-deps.sh --tests installs it)");
  }
  std::string zsh = found.out.substr(0, found.out.find('\n'));
  fixture::TempDir dir("graft-completion-");
  std::string file = dir.path() + "/_graft";
  std::ofstream(file) << graft_script("zsh");
  // compadd and _describe exist only inside a completion widget: stand-ins
  // print what they are given.
  std::string stubs =
      "compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- \"$@\" }\n"
      "_describe() { print -l -- \"${(@P)${@[-1]}}\" }\n"
      "_files() { print '<files>' }\n"
      "source \"$1\"\n";
  auto top = run_command({zsh, "-c", stubs + "words=(graft pol); CURRENT=2; _graft", "zsh", file});
  INFO(top.err);
  CHECK_THAT(top.out, Catch::Contains("policy:Work with the site policy\n"));
  auto policy = run_command({zsh, "-c", stubs + "words=(graft policy ''); CURRENT=3; _graft", "zsh", file});
  CHECK_THAT(policy.out, Catch::Contains("check:"));
  auto value = run_command({zsh, "-c", stubs + "words=(graft log --outcome ''); CURRENT=4; _graft", "zsh", file});
  CHECK(value.out == "planned\napplied\nrefused\nerror\n");
}

TEST_CASE("graft log and graft completion --help carry examples", "[completion][log]") {
  for (const char* command : {"log", "completion"}) {
    auto result = run_graft({command, "--help"});
    INFO(command);
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.out, Catch::Contains("Example"));
  }
}
