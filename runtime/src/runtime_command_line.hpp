// graft-runtime's command line: the real runtime's command line (runc's
// global options, a command, its options and arguments) with graft's own
// `--graft-policy FILE` among the global options. Parsed only as far as
// graft needs: the command, and for `create` and `run` the bundle and the
// container id; every other argument is passed on as it came. Pure.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "graft/base/error.hpp"

namespace graft::runtime {

struct RuntimeCommandLine {
  // argv[1..] without graft's options: what the real runtime gets.
  std::vector<std::string> runtime_args;
  std::string policy_path;   // --graft-policy; "" when not given
  std::string command;       // "create", "run", "delete", ...; "" when none (--version)
  std::string bundle;        // create/run: --bundle or -b; "" means the current directory
  std::string container_id;  // create/run: the first argument after the command's options
  std::string log_path;      // --log; "" when not given
  std::string log_format;    // --log-format; "" when not given (runc's default, text)
};

// `args` is argv without argv[0]. A `--graft-policy` after the command is
// not graft's (it may be an argument of `exec`'s process) and is passed on.
Result<RuntimeCommandLine> parse_runtime_command_line(std::span<const std::string> args);

// Whether `command` creates a container, so its bundle is graft's to edit.
bool creates_container(const std::string& command);

}  // namespace graft::runtime
