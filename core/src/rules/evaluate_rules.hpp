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

namespace graft {

// What one rule did in one evaluation: for `graft policy check`, which
// reports rules that act on no sample request, and for rule coverage.
struct RuleActivity {
  std::string name;
  Origin origin;
  bool ran = false;      // reached: a refusal stops the rules after it
  bool changed = false;  // the Intent differed after it ran
};

// With `activity`, it gets one entry per registered rule, in registration order.
Result<Intent> evaluate_rules(const Request& request, const Inventory& inventory,
                              const Policy& policy, std::vector<RuleActivity>* activity = nullptr);

}  // namespace graft
