// SPDX-License-Identifier: Apache-2.0
// Shared setup for the [env] tests of the shipped NVIDIA env contract
// (policies/nvidia/*.lua) that a policy test case cannot state (notes,
// reasons, other site policies, hostile values at scale; the contract itself
// is policies/nvidia/tests): the real shipped policy, a hand-built 8-GPU
// inventory, hand-built requests, and queries over the resulting Intent
// (inject flag, devices, capabilities, extras, refusal text, notes).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft::env_test {

using Env = std::map<std::string, std::string>;

inline const char* const kPrefix = "/var/run/nvidia-container-devices";

// GPUs 0 and 1 share the UUID prefix "GPU-1a2b"; GPU 3 is "GPU-fef8089b-...".
inline const std::vector<std::string> kUuids = {
    "GPU-1a2b0000-1111-2222-3333-000000000000", "GPU-1a2b0001-1111-2222-3333-000000000001",
    "GPU-5c6d0002-1111-2222-3333-000000000002", "GPU-fef8089b-1111-2222-3333-000000000003",
    "GPU-77770004-1111-2222-3333-000000000004", "GPU-88880005-1111-2222-3333-000000000005",
    "GPU-99990006-1111-2222-3333-000000000006", "GPU-aaaa0007-1111-2222-3333-000000000007",
};

inline const std::vector<std::string> kAllGpus = {"0", "1", "2", "3", "4", "5", "6", "7"};

// 8 GPUs, minors 0..7, driver 560.35.03; GPU 7 has three MIG partitions.
Inventory make_inventory();

const Policy& shipped_policy();
// Every channel trusted, privileged or not: isolates value parsing from trust.
Policy trusting_policy();
// The DESIGN example: unprivileged containers may not pick GPUs by env.
Policy cautious_policy();

Request make_request(const Env& env, bool privileged = false);
Intent evaluate(const Request& req, const Policy& policy = trusting_policy(),
                const Inventory& inv = make_inventory());
Intent evaluate_env(const Env& env, bool privileged = false);

// Granted devices as "3" (whole GPU) or "7:1" (partition), in grant order.
std::vector<std::string> devices(const Intent& intent);
std::vector<std::string> capabilities(const Intent& intent);
std::vector<std::string> extras(const Intent& intent);
std::vector<std::string> supported_capabilities();
std::vector<std::string> default_capabilities();
std::string refusal(const Intent& intent);
bool has_note(const Intent& intent, const std::string& text);

RequestMount device_mount(const std::string& what, const std::string& source = "/dev/null");

}  // namespace graft::env_test
