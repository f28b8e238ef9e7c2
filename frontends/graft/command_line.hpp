// SPDX-License-Identifier: Apache-2.0
// Parsing graft's command line: global options, one subcommand and its
// options, --help and --version. The only file that sees CLI11 is
// command_line.cpp, so its headers are compiled once.
#pragma once

#include <functional>

#include "command_types.hpp"

namespace graft::cli {

struct CommandLine {
  GlobalOptions global;
  // The chosen subcommand with its options bound; empty when parsing already
  // answered (--help, --version, a usage error), with `exit_code` to return.
  std::function<Result<int>(const GlobalOptions&)> command;
  int exit_code = exit_ok;
};

CommandLine parse_command_line(int argc, char** argv);

}  // namespace graft::cli
