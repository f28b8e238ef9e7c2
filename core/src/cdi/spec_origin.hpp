// SPDX-License-Identifier: Apache-2.0
// Whether a CDI spec on disk is one graft wrote, so that `graft cdi
// refresh` (and the package's purge) replace or remove graft's specs and
// never another's. JSON has no comments, and graft keeps to the fields
// cdiVersion 0.5.0 allows (no annotations, docs/cdi.md "Versions"), so the
// mark is what every spec graft writes for a host with a driver carries
// anyway: a hook that runs graft's own `graft --policy P cdi-hook ...`
// (container_edits/hook_arguments.hpp). Other tools' specs run their own hook
// program, or none.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"

namespace graft::cdi {

// A spec-level or device-level hook whose args are graft's cdi-hook's:
// args[0] "graft" and a "cdi-hook" among them.
bool written_by_graft(const nlohmann::json& document);

// Whether any hook, spec-level or device-level, is in the spec. A spec
// with none may still be graft's: a policy whose plans need no hook writes
// one (`graft cdi refresh` then goes by its kind).
bool runs_any_hook(const nlohmann::json& document);

// A spec's text as its document: JSON, or else YAML (cdi_yaml.hpp).
Result<nlohmann::json> parse_spec_text(const std::string& text);

}  // namespace graft::cdi
