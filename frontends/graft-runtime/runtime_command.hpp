// SPDX-License-Identifier: Apache-2.0
// What the real runtime will do with the arguments graft-runtime hands it:
// the command, and for a command that creates a container (create, run,
// restore) the bundle, crun's --config file and the container id, read as
// that runtime reads them (runtime_grammar.hpp). A create-like command line
// that graft-runtime cannot read with certainty is an error, never a guess:
// the container would run a spec graft did not read. Every other command
// line is the runtime's business and passes as it came. Pure.
#pragma once

#include <span>
#include <string>

#include "graft/base/error.hpp"
#include "runtime_grammar.hpp"

namespace graft::runtime {

struct RuntimeCommand {
  std::string command;       // "create", "delete", ...; "" when none (`--version`) or not certain
  bool creates = false;      // a container is created from a bundle: graft must prepare it
  std::string bundle;        // creates: --bundle or -b; "" means the current directory
  std::string config;        // creates: crun's --config or -f; "" when not given
  std::string container_id;  // creates: the one operand after the command's options
};

// `args` is what the real runtime gets (graft's own options already out).
// An error (exit 2) is one line saying which argument could not be read.
Result<RuntimeCommand> read_runtime_command(std::span<const std::string> args, const RuntimeGrammar& grammar);

}  // namespace graft::runtime
