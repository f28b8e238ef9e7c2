// SPDX-License-Identifier: Apache-2.0
// Static check of rule files and rule modules for `graft policy check`: each must be
// readable text Lua that compiles. Runs nothing.
#pragma once

#include "graft/base/error.hpp"
#include "policy/policy.hpp"

namespace graft {

Status check_rule_files(const Policy& policy);

}  // namespace graft
