// SPDX-License-Identifier: Apache-2.0
// One container under `graft hook` or `graft apply`: evaluate it, load the
// plugins, carry out the plan inside the running container, and write the
// audit record. The commands only read the request before and print one line
// after. The deadline runs until the record is written; should it pass first,
// its handler writes the error record in this one's place.
#pragma once

#include <optional>
#include <string>

#include "apply/apply_plan.hpp"
#include "apply/container_process.hpp"
#include "graft/base/error.hpp"
#include "evaluation/container_outcome.hpp"
#include "evaluation/container_plan.hpp"
#include "graft/engine/deadline.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft {

// The container being applied to: its init, held by a pidfd since the
// command first read its pid, and who asks (hook or `graft apply`).
struct RunningContainer {
  const ContainerProcess& process;
  ApplyCaller caller;
};

// A run that went through: untouched, applied or refused.
struct ContainerRun {
  ContainerOutcome outcome = ContainerOutcome::untouched;
  std::optional<ContainerPlan> evaluation;  // the plan, its inventory and timings
  std::optional<ApplyReport> applied;       // set when outcome is applied
  // Untouched although the rules did not load: the one line the hook prints
  // on stderr (engine/plain_request.hpp).
  std::string warning;
};

// Evaluates `request` and applies its plan to `container` (at
// request.rootfs), then appends the audit record to policy.audit_log.
// `deadline` (armed from `policy`) is disarmed before the record. An error is
// the first that arose: the evaluation's or applying's (recorded as
// outcome error) or, after a run that went through, the record's own.
Result<ContainerRun> run_container(const Policy& policy, Deadline& deadline, const Request& request,
                                   const RunningContainer& container);

// As run_container, for a plan the caller made rather than one evaluated
// from the request (`graft cdi-hook`: the actions its arguments name); the
// audit record carries that plan.
Result<ContainerRun> run_container_plan(const Policy& policy, Deadline& deadline,
                                        const Request& request, ContainerPlan evaluation,
                                        const RunningContainer& container);

}  // namespace graft
