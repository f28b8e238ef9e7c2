// SPDX-License-Identifier: Apache-2.0
// What became of one container, as its audit record and graft's exit say it.
// `graft plan` ends in planned or refused; `graft hook` and `graft apply` in
// untouched, applied, refused or error.
#pragma once

#include <string_view>

namespace graft {

enum class ContainerOutcome {
  untouched,  // asked for no GPU: nothing applied, no audit record
  planned,    // a plan was printed, nothing applied
  applied,
  refused,    // the policy refused the container; nothing applied
  error,
};

// The word the audit log records ("planned", "applied", ...).
std::string_view outcome_name(ContainerOutcome outcome);

}  // namespace graft
