// SPDX-License-Identifier: Apache-2.0
// podman's drop-in (containers.conf.d/99-graft.conf): graft's runtime by
// name under `[engine.runtimes]`, for `podman --runtime graft run ...`.
// podman reads the drop-ins after containers.conf, key by key. podman
// needs none of this for graft's hook: the hooks.d file the package
// installs already serves every podman container.
#pragma once

#include <string>

#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {

// The drop-in's text below graft's first line (owned_file.hpp).
std::string podman_drop_in(const RuntimeEntry& entry);

}  // namespace graft::runtime_config
