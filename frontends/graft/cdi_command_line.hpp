// SPDX-License-Identifier: Apache-2.0
// The `cdi` and `cdi-hook` subcommands' options, footers and examples
// (command_line.cpp builds the rest of the command line; docs/cdi.md).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "command_types.hpp"

namespace graft::cli {

void add_cdi_hook_command(CLI::App& app, CdiHookOptions& options);
// `cdi generate`, `cdi refresh` and `cdi validate`.
struct CdiCommandOptions {
  CdiGenerateOptions generate;
  CdiGenerateOptions refresh{.output = "/var/run/cdi/graft.json"};
  std::string validate_file;
};
void add_cdi_command(CLI::App& app, CdiCommandOptions& options);

}  // namespace graft::cli
