// SPDX-License-Identifier: Apache-2.0
// Loading plugins: vet the file (plugin_file), dlopen it RTLD_NOW|RTLD_LOCAL
// through /proc/self/fd, validate its descriptor against this graft's ABI,
// then init it. Each refusal is one line that names the file.
#pragma once

#include <memory>
#include <string>

#include "graft/base/error.hpp"
#include "plugin_host/loaded_plugin.hpp"
#include "plugin_host/plugin_set.hpp"

namespace graft {

struct Policy;

// Loads and initialises dir/lib<name>.so with `config_json`.
Result<std::unique_ptr<LoadedPlugin>> load_plugin(const std::string& dir, const std::string& name,
                                                  const std::string& config_json = "{}");

// Policy::plugin_dir, or the installed directory when the policy names none.
std::string plugin_dir_of(const Policy& policy);

// Loads Policy::plugins from the policy's directory; an empty list means
// every lib*.so in it (sorted by name, for a deterministic order).
Result<PluginSet> load_plugins(const Policy& policy);

}  // namespace graft
