// SPDX-License-Identifier: Apache-2.0
// `graft inventory`: what discovery finds on this host under the policy's roots.
#include <cstdio>

#include "commands/command_steps.hpp"
#include "render/render.hpp"

namespace graft::commands {

Result<int> run_inventory(const GlobalOptions& global, const std::string& format) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto inventory = discover_inventory(*policy);
  if (!inventory) return inventory.error();
  if (format == "json")
    std::printf("%s\n", render_inventory_json(*inventory).dump(2).c_str());
  else
    std::fputs(render_inventory_text(*inventory).c_str(), stdout);
  return exit_ok;
}

}  // namespace graft::commands
