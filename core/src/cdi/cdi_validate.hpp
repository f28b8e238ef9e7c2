// SPDX-License-Identifier: Apache-2.0
// Checking a CDI spec document against the CDI rules (spec 1.1.0, as
// docs/cdi.md cites them): names, cdiVersion, the fields each version
// allows, unknown fields, required fields, hook names, absolute paths.
// Pure: the document comes in parsed.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft::cdi {

// Every problem, one line each, starting with the JSON path
// ("$.devices[0].containerEdits.hooks[1].hookName: ..."); empty when valid.
std::vector<std::string> validate_spec(const nlohmann::json& document);

}  // namespace graft::cdi
