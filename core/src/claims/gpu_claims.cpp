// SPDX-License-Identifier: Apache-2.0
// A container's granted devices claimed under [exclusive] gpus (gpu_claims.hpp).
#include "claims/gpu_claims.hpp"

#include <fmt/format.h>

#include "claims/claim_store.hpp"

namespace graft {
namespace {

Reason held_by(const Policy& policy, const ClaimConflict& conflict) {
  Reason reason;
  reason.text = fmt::format("{} is held by running container {} (pid {}); [exclusive] gpus gives a GPU to "
                            "one running container at a time",
                            conflict.wanted.label, conflict.holder.container_id, conflict.holder.pid);
  if (auto found = policy.key_origins.find("exclusive.gpus"); found != policy.key_origins.end())
    reason.origin = found->second.origin;
  return reason;
}

}  // namespace

Result<std::optional<Reason>> claim_granted_devices(const Policy& policy, const ContainerPlan& evaluation,
                                                    const std::string& container_id,
                                                    const ContainerProcess& process) {
  const auto& grants = evaluation.plan.intent.devices;
  if (!policy.exclusive.gpus || grants.empty()) return std::optional<Reason>();
  auto start = process_start_time(process.pid());
  if (!start) return start.error().context("exclusive GPUs: container " + container_id);
  Holder me{container_id, process.pid(), *start};
  auto conflict = claim_devices(policy.exclusive.state_dir, claim_keys(grants, evaluation.inventory), me,
                                holder_alive);
  if (!conflict) return conflict.error().context("container " + container_id);
  if (!*conflict) return std::optional<Reason>();
  return std::optional<Reason>(held_by(policy, **conflict));
}

}  // namespace graft
