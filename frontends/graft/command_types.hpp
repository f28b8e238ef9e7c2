// SPDX-License-Identifier: Apache-2.0
// The front end speaks the engine's command types: the options of every
// subcommand and its run_ function (graft/engine/commands.hpp), and the
// exit codes (graft/engine/exit_code.hpp).
#pragma once

#include "graft/engine/commands.hpp"
#include "graft/engine/exit_code.hpp"

namespace graft::cli {

using namespace graft::commands;

}  // namespace graft::cli
