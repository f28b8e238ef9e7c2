// SPDX-License-Identifier: Apache-2.0
// The residual actions of a split plan (container_edits.hpp) as the
// options of `graft cdi-hook` (graft/engine/cdi_hook_actions.hpp, which
// holds the table), and back.
// Everything else (mount options, plugin, the cache file) is fixed by the
// option, so an action whose fields differ from that cannot be encoded and
// is an error, never silently changed. Pure.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/engine/cdi_hook_actions.hpp"
#include "graft/engine/container_edits.hpp"
#include "plan/plan.hpp"

namespace graft {

// The options that carry `residual`; an error names an action no option
// expresses exactly.
Result<CdiHookActions> cdi_hook_actions_of(const std::vector<Action>& residual);

// The options as arguments ("--link", "PATH::VALUE", ...), in the order of
// the table above.
std::vector<std::string> cdi_hook_arguments(const CdiHookActions& actions);

// `graft --policy POLICY cdi-hook createRuntime OPTIONS...` with env {kHookPath}.
HookCommand cdi_hook_command(const std::string& graft_binary, const std::string& policy,
                             const CdiHookActions& actions);

// The actions the options name, checked (absolute paths, "::" present, keep
// and rewrite only with a mask, entries only with a dir), in apply order.
// `device_paths` are the container's device nodes (Request::device_paths):
// a --procfs-bind-if whose nodes are all among them is a bind, others none.
Result<std::vector<Action>> actions_from_cdi_hook(const CdiHookActions& actions,
                                                  const std::vector<std::string>& device_paths = {});

}  // namespace graft
