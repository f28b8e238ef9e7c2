// SPDX-License-Identifier: Apache-2.0
// Reading policy test cases (docs/policy-test.md): a TOML file, or a Lua file
// that returns the same table (run in the rules sandbox: no io, os, require
// or load). Every key is checked as the policy loader checks its own: an
// unknown one is an error at file:line with a "did you mean".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "graft/base/error.hpp"
#include "policy_cases/policy_case.hpp"

namespace graft {

// The case in `table`, read from `file` (for messages and the default name). Pure.
Result<PolicyCase> read_case_table(const toml::table& table, const std::string& file);

// The case in TOML `text`, as if read from `file`. Pure.
Result<PolicyCase> parse_case_toml(std::string_view text, const std::string& file);

// The table a Lua case file's chunk returns, as TOML values (positions: the file only).
Result<toml::table> lua_case_table(std::string_view text, const std::string& file);

// Reads `path`: *.lua as Lua, anything else as TOML.
Result<PolicyCase> read_case_file(const std::string& path);

// The case files named: files as given, directories' *.toml and *.lua files
// (not their subdirectories), each directory's sorted by name. Finding none
// is an error.
Result<std::vector<std::string>> find_case_files(const std::vector<std::string>& paths);

}  // namespace graft
