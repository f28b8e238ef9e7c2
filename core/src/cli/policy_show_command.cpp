// `graft policy show`: loads the site policy as the hook would, loads its
// rule files to learn the rules they register (running none), and prints the
// merged result (render/policy_render.hpp) as TOML or JSON.
#include <cstdio>

#include "cli/commands.hpp"
#include "render/policy_render.hpp"

namespace graft::cli {

Result<int> run_policy_show(const GlobalOptions& global, const std::string& format) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto rules = registered_rules(*policy);
  if (!rules) return rules.error();
  if (format == "json")
    std::printf("%s\n", render_policy_json(*policy, *rules).dump(2).c_str());
  else
    std::fputs(render_policy_toml(*policy, *rules).c_str(), stdout);
  return exit_ok;
}

}  // namespace graft::cli
