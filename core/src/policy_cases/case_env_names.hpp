// SPDX-License-Identifier: Apache-2.0
// A case's request env names checked against the names its policy reads, so
// a case that sets VENDOR_VISIBLE_DEVICE (one letter short of the policy's
// VENDOR_VISIBLE_DEVICES) fails as a typo instead of passing because nothing
// was injected. Core knows no vendor's names: they come from the loaded
// policy. Pure.
#pragma once

#include <vector>

#include "policy/policy.hpp"
#include "policy_cases/case_compare.hpp"
#include "request/request.hpp"

namespace graft {

// One mismatch ("request.env name") per env name of `request` that the
// policy declares nowhere ([audit] env, whose patterns are the variables it
// reads, and [sample.NAME] env) and that is one or two edits from a name it
// does declare.
std::vector<Mismatch> misspelled_env_names(const Request& request, const Policy& policy);

}  // namespace graft
