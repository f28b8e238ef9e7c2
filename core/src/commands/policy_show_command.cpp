// SPDX-License-Identifier: Apache-2.0
// `graft policy show [KEY]`: loads the site policy as the hook would, loads its
// rule files to learn the rules they register (running none), and prints the
// merged result (render/policy_render.hpp) as TOML or JSON, or one key of it
// with its origin and what it overrode (render/policy_key.hpp).
#include <cstdio>

#include "commands/command_steps.hpp"
#include "render/policy_key.hpp"
#include "render/policy_render.hpp"

namespace graft::commands {

Result<int> run_policy_show(const GlobalOptions& global, const std::string& format, const std::string& key) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto rules = registered_rules(*policy);
  if (!rules) return rules.error();
  if (!key.empty()) {
    auto shown = format == "json" ? render_policy_key_json(*policy, *rules, key)
                                  : render_policy_key_text(*policy, *rules, key);
    if (!shown) return shown.error();
    std::fputs(shown->c_str(), stdout);
    return exit_ok;
  }
  if (format == "json")
    std::printf("%s\n", render_policy_json(*policy, *rules).dump(2).c_str());
  else
    std::fputs(render_policy_toml(*policy, *rules).c_str(), stdout);
  return exit_ok;
}

}  // namespace graft::commands
