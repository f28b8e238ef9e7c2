// SPDX-License-Identifier: Apache-2.0
// The `runtime configure` subcommand's options, footer and examples
// (command_line.cpp builds the rest of the command line; docs/runtimes.md).
#pragma once

#include <CLI/CLI.hpp>

#include "command_types.hpp"

namespace graft::cli {

void add_runtime_command(CLI::App& app, RuntimeConfigureOptions& options);

}  // namespace graft::cli
