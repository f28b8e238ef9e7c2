// SPDX-License-Identifier: Apache-2.0
// Renderers: the same Plan (or Inventory) as text for people or as JSON for
// tools. Neither changes anything; `graft plan` is an honest dry run.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "inventory/inventory.hpp"
#include "plan/plan.hpp"

namespace graft {

// Version of the JSON plan document; bump the major on incompatible change.
inline constexpr const char* plan_schema_id = "graft.plan/v1";
inline constexpr const char* inventory_schema_id = "graft.inventory/v1";

std::string render_plan_text(const Plan& plan);
// "container ID refused: TEXT (file:line)", the one line graft and
// graft-runtime print for a refusal. `plan` must carry a refusal.
std::string refusal_line(const Plan& plan);
nlohmann::json render_plan_json(const Plan& plan);
// The plan document's "decisions" alone: what the audit record keeps.
nlohmann::json render_decisions_json(const Plan& plan);

std::string render_inventory_text(const Inventory& inventory);
nlohmann::json render_inventory_json(const Inventory& inventory);

}  // namespace graft
