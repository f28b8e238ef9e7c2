// SPDX-License-Identifier: Apache-2.0
// [exclusive] gpus for one container about to get its plan: every GPU and
// partition it was granted, claimed for it, or the refusal that names the
// running container holding one (docs/policy.md "[exclusive]").
#pragma once

#include <optional>

#include "apply/container_process.hpp"
#include "evaluation/container_plan.hpp"
#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "policy/policy.hpp"

namespace graft {

// Nothing to do (and no error) when the policy leaves [exclusive] gpus off
// or the plan grants no device. The refusal's origin is the policy line
// that turned [exclusive] gpus on.
Result<std::optional<Reason>> claim_granted_devices(const Policy& policy, const ContainerPlan& evaluation,
                                                    const std::string& container_id,
                                                    const ContainerProcess& process);

}  // namespace graft
