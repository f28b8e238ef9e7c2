// SPDX-License-Identifier: Apache-2.0
// The command tree the completion scripts are made from, read out of
// graft's CLI11 command line: every command, option, choice and positional.
#pragma once

#include <CLI/CLI.hpp>

#include "graft/engine/command_tree.hpp"

namespace graft::cli {

// The app's commands and options as the completion scripts need them.
CompletionCommand completion_tree(const CLI::App& app);

}  // namespace graft::cli
