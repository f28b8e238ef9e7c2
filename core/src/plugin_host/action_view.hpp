// SPDX-License-Identifier: Apache-2.0
// The C view of a Plan action handed to a plugin's apply: graft_action
// pointing into the Action's own strings plus the NULL-terminated arrays the
// C struct needs. The view borrows from the Action, so it must not outlive it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graft/plugin.h"
#include "plan/plan.hpp"

namespace graft {

// The fixed ABI number for a kind, and back (nullopt for unknown numbers,
// which a plugin compiled against a newer header may claim).
std::uint32_t to_abi_kind(ActionKind kind);
std::optional<ActionKind> from_abi_kind(std::uint32_t kind);

class ActionView {
 public:
  // `index` is the action's position in its plan (graft_action::index).
  ActionView(const Action& action, std::uint32_t index);
  ActionView(const ActionView&) = delete;
  ActionView& operator=(const ActionView&) = delete;

  const graft_action* get() const { return &view_; }

 private:
  std::string origin_;
  std::vector<const char*> options_, paths_, rewrites_;
  graft_action view_{};
};

}  // namespace graft
