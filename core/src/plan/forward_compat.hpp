// SPDX-License-Identifier: Apache-2.0
// Forward compatibility ([forward_compat], policy.hpp): when the plan injects
// the policy's deciding library and the container's image ships a newer
// major version of it in the policy's directory, the container's loader is
// told to prefer that directory: an ld.so.conf.d entry (a config_file action
// the libraries plugin writes inside the root) and the image's soname listed
// first in the ld cache refresh. The image's files are never mounted: the
// container only ever loads its own files. The decision, either way, is a
// note in the plan with its reason.
#pragma once

#include "plan/plan_context.hpp"

namespace graft {

// `refresh` is the plan's ld cache refresh, not yet added to the plan: its
// expected entries gain the image's soname first when the image's copy wins.
Status add_forward_compat(PlanContext& context, Action& refresh);

}  // namespace graft
