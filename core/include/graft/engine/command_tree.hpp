// SPDX-License-Identifier: Apache-2.0
// graft's commands and options as plain data, for the shell completion
// scripts: command_line.cpp fills it by walking the CLI11 app (the only file
// that sees CLI11), so a script lists every command and option the binary
// parses and cannot fall behind it.
#pragma once

#include <string>
#include <vector>

namespace graft {

struct CompletionOption {
  std::vector<std::string> names;    // "--format", "-h"; empty for a positional
  bool takes_value = false;          // false: a flag
  std::vector<std::string> choices;  // the values it accepts; empty: any
  std::string description;
  // Without choices: whether the value names a file (files are offered) or
  // is free text such as KEY=VALUE or a time (nothing is offered).
  bool files = true;
};

struct CompletionCommand {
  std::string name;  // "graft" at the root
  std::string description;
  std::vector<CompletionOption> options;      // the root's apply under every command
  std::vector<CompletionOption> positionals;  // in order
  std::vector<CompletionCommand> subcommands;
};

}  // namespace graft
