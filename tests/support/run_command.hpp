// SPDX-License-Identifier: Apache-2.0
// Runs a command (argv, no shell) and captures its exit code, stdout and
// stderr, for tests that exercise the real `graft` binary.
#pragma once

#include <string>
#include <vector>

namespace graft::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CommandResult run_command(const std::vector<std::string>& argv, const std::string& input = "");

// The graft binary built alongside the tests.
CommandResult run_graft(const std::vector<std::string>& args);

// Validates the JSON document in `file` against docs/`schema` (such as
// "verify-schema.json") with python3's jsonschema; exit code 0 when it
// validates, the reason in err.
CommandResult check_json_schema(const std::string& file, const std::string& schema);
// The same against docs/plan-schema.json.
CommandResult check_plan_schema(const std::string& file);

}  // namespace graft::testing
