// SPDX-License-Identifier: Apache-2.0
// Host conveniences and config parsing for plugin_glue.hpp.
#include "plugin_glue.hpp"

#include <cstring>

#ifdef GRAFT_PLUGIN_OWN_CXX_RUNTIME
namespace __gnu_cxx {
void __freeres() noexcept;  // libstdc++'s own hook for freeing its buffers at exit
}

// Linked with its own copy of libstdc++ (cmake/dependencies.cmake), every
// plugin would leave that copy's emergency exception pool (about 70 KiB)
// allocated at each dlclose; a host that loads plugins again and again
// (tests/unit/apply_leak_test.cpp) would grow without bound.
__attribute__((destructor)) static void free_own_cxx_runtime() { __gnu_cxx::__freeres(); }
#endif

namespace graft::plugin {

void Host::log(int level, const std::string& message) const {
  if (services_ != nullptr && services_->log != nullptr)
    services_->log(services_->host, level, message.c_str());
}

int Host::resolve_in_root(int root_fd, const std::string& path, int flags) const {
  return services_->resolve_in_root(services_->host, root_fd, path.c_str(), flags);
}

void Findings::report(std::uint32_t kind, const std::string& expected,
                      const std::string& found) const {
  if (sink_ == nullptr || sink_->report == nullptr) return;
  graft_finding finding{};
  finding.struct_size = sizeof finding;
  finding.kind = kind;
  finding.expected = expected.c_str();
  finding.found = found.c_str();
  sink_->report(sink_->host, &finding);
}

void Findings::drift(const std::string& expected, const std::string& found) const {
  report(GRAFT_FINDING_DRIFT, expected, found);
}

void Findings::unknown(const std::string& expected, const std::string& why) const {
  report(GRAFT_FINDING_UNKNOWN, expected, why);
}

void Findings::not_checked(const std::string& why) const {
  report(GRAFT_FINDING_NOT_CHECKED, "", why);
}

bool has_option(const graft_action& action, const char* word) {
  for (const char* const* option = action.options; option && *option; ++option)
    if (std::strcmp(*option, word) == 0) return true;
  return false;
}

Result<nlohmann::json> parse_config(const char* config_json) {
  auto config = nlohmann::json::parse(config_json ? config_json : "{}", nullptr, false);
  if (config.is_discarded() || !config.is_object())
    return make_error("plugin config is not a JSON object");
  return config;
}

Status check_config_keys(const nlohmann::json& config, std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : config.items()) {
    bool listed = false;
    for (std::string_view name : known) listed = listed || key == name;
    if (!listed)
      return make_error("unknown config key '{}'{}", key,
                        known.size() == 0 ? " (this plugin takes no configuration)" : "");
  }
  return ok_status();
}

}  // namespace graft::plugin
