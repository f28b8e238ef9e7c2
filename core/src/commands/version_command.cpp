// SPDX-License-Identifier: Apache-2.0
// `graft version`: the build's version and where this graft finds its
// policy, the shipped policies and the plugins.
#include <cstdio>

#include "commands/command_steps.hpp"
#include "graft/build_config.hpp"
#include "graft/engine/install_dirs.hpp"

namespace graft::commands {

Result<int> run_version(const GlobalOptions& global) {
  std::printf("graft %s\npolicy   %s\npolicies %s\nplugins  %s\n", build::version,
              global.policy_path.c_str(), install_dirs().policies.c_str(),
              install_dirs().plugins.c_str());
  return exit_ok;
}

}  // namespace graft::commands
