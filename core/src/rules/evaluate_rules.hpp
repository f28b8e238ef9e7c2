// Runs the policy's Lua rules (phase by phase: request, restrict, derive,
// check) over a Request and an Inventory, producing the Intent. Each evaluation gets a fresh
// sandboxed Lua state: no io/os/require/load/debug, text chunks only, one
// _ENV per rule file, read-only views, an instruction budget and a memory cap.
// The Lua API is documented in docs/rules.md.
#pragma once

#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft {

Result<Intent> evaluate_rules(const Request& request, const Inventory& inventory,
                              const Policy& policy);

}  // namespace graft
