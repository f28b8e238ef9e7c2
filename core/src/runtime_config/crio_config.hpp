// SPDX-License-Identifier: Apache-2.0
// CRI-O's drop-in (crio.conf.d/99-graft.conf): graft's runtime handler
// (`[crio.runtime.runtimes.graft]`, runtime_path, runtime_type "oci",
// runtime_root), selected by a RuntimeClass with `handler: graft`. CRI-O
// merges its drop-ins key by key over crio.conf, so nothing else is touched.
#pragma once

#include <string>

#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {

// The drop-in's text below graft's first line (owned_file.hpp).
std::string crio_drop_in(const RuntimeEntry& entry);

}  // namespace graft::runtime_config
