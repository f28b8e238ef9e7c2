// `graft inventory`: what discovery finds on this host under the policy's roots.
#include <cstdio>

#include "cli/commands.hpp"
#include "render/render.hpp"

namespace graft::cli {

Runner add_inventory_command(CLI::App& app, const GlobalOptions& global) {
  auto format = std::make_shared<std::string>("text");
  auto* command = app.add_subcommand("inventory", "Show the GPUs, nodes and files found on this host");
  command->footer("Examples:\n  graft inventory\n  graft inventory --format json --policy /etc/graft/graft.toml");
  command->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return [&global, format]() -> Result<int> {
    auto policy = load_site_policy(global);
    if (!policy) return policy.error();
    auto inventory = discover_inventory(*policy);
    if (!inventory) return inventory.error();
    if (*format == "json")
      std::printf("%s\n", render_inventory_json(*inventory).dump(2).c_str());
    else
      std::fputs(render_inventory_text(*inventory).c_str(), stdout);
    return exit_ok;
  };
}

}  // namespace graft::cli
