// SPDX-License-Identifier: Apache-2.0
// The [expect] table of a policy test case (docs/policy-test.md).
#pragma once

#include "policy/toml_field.hpp"
#include "policy_cases/policy_case.hpp"

namespace graft {

Status read_expectation(const policy_parse::TomlField& field, Expectation& into);

}  // namespace graft
