// SPDX-License-Identifier: Apache-2.0
// What `graft runtime configure` puts in an engine's configuration: graft's
// runtime, by name, with the runtime binary (graft-runtime, or a wrapper
// that passes it a policy) and what the engine's file format may carry
// beside it. Each engine's file is edited by its own file here
// (docker_config, containerd_config, crio_config, podman_config).
#pragma once

#include <string>
#include <vector>

namespace graft::runtime_config {

struct RuntimeEntry {
  std::string name = "graft";          // the runtime's name in the engine (--runtime graft)
  std::string binary;                  // absolute path of graft-runtime (or a wrapper)
  std::vector<std::string> arguments;  // Docker's runtimeArgs; the other engines have none
  bool set_as_default = false;         // Docker: "default-runtime"
  bool cdi = false;                    // Docker: "features": {"cdi": true}
};

// The first line of every file graft writes whole, and how --remove knows
// the file is graft's.
inline constexpr const char* kWrittenByGraft =
    "# Written by `graft runtime configure`; `graft runtime configure --remove` deletes it.";

}  // namespace graft::runtime_config
