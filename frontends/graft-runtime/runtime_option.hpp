// SPDX-License-Identifier: Apache-2.0
// Reading one argument of a real runtime's command line as its parser
// reads it (runtime_grammar.hpp): an operand, the `--` that ends the
// options, one or more options with their values, or an argument
// graft-runtime cannot read with certainty (an unknown option, an
// abbreviation, a form the syntax does not have), which the runtime may
// take with or without the next argument as its value. Pure.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "runtime_grammar.hpp"

namespace graft::runtime {

struct FoundOption {
  const RuntimeOption* option = nullptr;
  // An option that takes a value: its value. A flag: the value attached
  // with '=', which only runc's parser reads (`--systemd-cgroup=false`);
  // "" when none.
  std::string value;
};

struct ReadArgument {
  enum class Kind {
    operand,    // not an option: the command, or the container id
    end,        // `--`: the arguments after it are operands
    options,    // `found`, spanning `width` arguments
    uncertain,  // not an option graft-runtime can read: `why`
  };
  Kind kind = Kind::operand;
  std::vector<FoundOption> found;  // options: in order (one, or a group of letters)
  std::size_t width = 1;           // options: 2 when the last one's value is the next argument
  std::string why;                 // uncertain: why ("'--bund' is not an option crun has ...")
};

// args[at] read as `grammar`'s runtime reads it among `options` (its
// global options, or one command's).
ReadArgument read_argument(const RuntimeGrammar& grammar, std::span<const RuntimeOption> options,
                           std::span<const std::string> args, std::size_t at);

}  // namespace graft::runtime
