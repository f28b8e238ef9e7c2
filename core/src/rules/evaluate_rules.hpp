// SPDX-License-Identifier: Apache-2.0
// Runs the policy's Lua rules (phase by phase: request, restrict, derive,
// check) over a Request and an Inventory, producing the Intent. Each evaluation gets a fresh
// sandboxed Lua state: no io/os/require/load/debug, text chunks only, one
// _ENV per rule file, read-only views, an instruction budget and a memory cap.
// The Lua API is documented in docs/rules.md.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"
#include "rules/data_read.hpp"
#include "rules/rule_phase.hpp"

namespace graft {

// What one rule did in one evaluation: for `graft policy check`, which
// reports rules that act on no sample request, for rule coverage, and (with
// ActivityDetail::explained) for `graft plan --explain`.
struct RuleActivity {
  std::string name;
  Origin origin;
  bool ran = false;      // reached: a refusal stops the rules after it
  bool changed = false;  // the Intent differed after it ran
  bool failed = false;   // it raised an error (or hit a limit): the evaluation ends with that error
  std::vector<DataRead> undeclared_reads;  // distinct, in the order read
  rules::RulePhase phase = rules::RulePhase::restrict;
  // Only with ActivityDetail::explained:
  std::vector<std::string> reads;  // through the views, distinct, the first ViewReads::kLimitPerRule
  std::size_t reads_left_out = 0;  // distinct reads past that limit
  std::vector<std::string> changes;  // intent_changes() over the rule's run
};

enum class ActivityDetail {
  outcome,    // ran and changed
  explained,  // also what each rule read and what it changed (costs a recording per view access)
};

// With `activity`, it gets one entry per registered rule, in registration
// order (rules run phase by phase: sort by phase, stably, for the run order).
Result<Intent> evaluate_rules(const Request& request, const Inventory& inventory,
                              const Policy& policy, std::vector<RuleActivity>* activity = nullptr,
                              ActivityDetail detail = ActivityDetail::outcome);

// The rules the policy's rule files register, in registration order (name,
// origin, phase; none ran): the files are loaded in a sandbox as for an
// evaluation, and no rule runs.
Result<std::vector<RuleActivity>> registered_rules(const Policy& policy);

}  // namespace graft
