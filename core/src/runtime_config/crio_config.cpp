// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/crio_config.hpp"

#include <fmt/format.h>

#include "runtime_config/owned_file.hpp"

namespace graft::runtime_config {

std::string crio_drop_in(const RuntimeEntry& entry) {
  return fmt::format(
      "[crio.runtime.runtimes.{}]\n"
      "runtime_path = {}\n"
      "runtime_type = \"oci\"\n"
      "runtime_root = {}\n",
      entry.name, toml_string(entry.binary), toml_string("/run/" + entry.name + "-runtime"));
}

}  // namespace graft::runtime_config
