// SPDX-License-Identifier: Apache-2.0
// graft-runtime's command line: the real runtime's command line (global
// options, a command, its options and arguments) with graft's own
// `--graft-policy FILE` among the global options. Read here only as far as
// graft-runtime needs before it knows which runtime the policy names: its
// own option taken out, and runc's --log and --log-format, where its errors
// also go. What the command does is read by the real runtime's grammar
// (runtime_command.hpp). Pure.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "graft/base/error.hpp"

namespace graft::runtime {

struct RuntimeCommandLine {
  // argv[1..] without graft's options: what the real runtime gets.
  std::vector<std::string> runtime_args;
  std::string policy_path;  // --graft-policy; "" when not given
  std::string log_path;     // --log; "" when not given
  std::string log_format;   // --log-format; "" when not given (runc's default, text)
};

// `args` is argv without argv[0]. A `--graft-policy` after the command is
// not graft's (it may be an argument of `exec`'s process) and is passed on.
Result<RuntimeCommandLine> parse_runtime_command_line(std::span<const std::string> args);

}  // namespace graft::runtime
