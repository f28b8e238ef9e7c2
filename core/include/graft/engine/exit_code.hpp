// SPDX-License-Identifier: Apache-2.0
// The exit codes of graft and graft-runtime, documented in docs/cli.md;
// scripts and container engines rely on these numbers.
#pragma once

namespace graft {

enum ExitCode : int {
  exit_ok = 0,
  exit_error = 1,    // policy, discovery, rule or I/O failure; `verify`: drift
  exit_usage = 2,    // bad command line
  exit_refused = 3,  // the policy refused the container
};

}  // namespace graft
