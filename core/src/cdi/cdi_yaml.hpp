// SPDX-License-Identifier: Apache-2.0
// Reading a CDI spec written in YAML (block style, as `graft cdi generate
// --format yaml` and most tools write it) into the JSON document the
// validator judges (cdi_validate.hpp). Plain scalars take their type from
// YAML 1.2's core schema (null, booleans, integers, floats); quoted or
// explicitly tagged ones stay strings, as a CDI consumer reads them. The file
// may come from anywhere: aliases are expanded only up to a node budget, and
// nesting is bounded, so an alias bomb is an error, not an exhausted host.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"

namespace graft::cdi {

// One document; an error names the line and column (1-based) where the YAML
// parser stopped, or the budget that ran out.
Result<nlohmann::json> parse_yaml(const std::string& text);

}  // namespace graft::cdi
