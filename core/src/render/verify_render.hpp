// SPDX-License-Identifier: Apache-2.0
// `graft verify`'s report as text (one line per difference, then one
// summary line) or as the JSON document docs/verify-schema.json describes.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "verify/verify_plan.hpp"

namespace graft {

inline constexpr const char* verify_schema_id = "graft.verify/v1";

// Who was verified, as the report names it.
struct VerifiedContainer {
  std::string id;
  int pid = 0;
};

std::string render_verify_text(const VerifiedContainer& container, const VerifyReport& report);
nlohmann::json render_verify_json(const VerifiedContainer& container, const VerifyReport& report);

}  // namespace graft
