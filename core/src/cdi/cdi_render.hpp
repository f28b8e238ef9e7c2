// SPDX-License-Identifier: Apache-2.0
// A CDI spec (cdi_spec.hpp) as the JSON or YAML file runtimes read. Only
// fields the spec's features account for are written, so nothing appears
// above the declared cdiVersion. The YAML is written by hand for this one
// shape: block mappings and sequences, every string double-quoted with JSON
// escapes (valid YAML 1.2 and 1.1), so it reads back as the same document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cdi/cdi_spec.hpp"

namespace graft::cdi {

nlohmann::ordered_json spec_json(const Spec& spec);
std::string render_json(const Spec& spec);  // indented, ends with a newline
std::string render_yaml(const Spec& spec);  // ends with a newline

// Any JSON document as block YAML (used for the spec; exposed for tests).
std::string to_yaml(const nlohmann::ordered_json& document);

}  // namespace graft::cdi
