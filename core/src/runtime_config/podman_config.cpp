// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/podman_config.hpp"

#include <fmt/format.h>

#include "runtime_config/owned_file.hpp"

namespace graft::runtime_config {

std::string podman_drop_in(const RuntimeEntry& entry) {
  return fmt::format("[engine.runtimes]\n{} = [{}]\n", entry.name, toml_string(entry.binary));
}

}  // namespace graft::runtime_config
