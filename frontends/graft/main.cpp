// SPDX-License-Identifier: Apache-2.0
// graft command line: parses arguments, runs one subcommand through the
// engine API, and turns every Error into exactly one line on stderr with a
// documented exit code.
#include <cstdio>

#include "command_line.hpp"
#include "graft/base/one_line.hpp"
#include "graft/engine/exit_code.hpp"
#include "graft/engine/logging.hpp"

namespace graft::cli {
namespace {

int run(int argc, char** argv) {
  CommandLine line = parse_command_line(argc, argv);
  if (!line.command) return line.exit_code;
  setup_logging("graft", line.global.log_level);
  auto result = line.command(line.global);
  if (!result) {
    std::fprintf(stderr, "graft: %s\n", one_line(result.error().message).c_str());
    return exit_error;
  }
  return *result;
}

}  // namespace
}  // namespace graft::cli

int main(int argc, char** argv) { return graft::cli::run(argc, argv); }
