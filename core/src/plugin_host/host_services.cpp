// SPDX-License-Identifier: Apache-2.0
// Host side of graft_host_services. These functions are called from plugin
// code, so nothing may throw out of them: an exception crossing into C is
// undefined behaviour.
#include "plugin_host/host_services.hpp"

#include <spdlog/spdlog.h>

#include "graft/base/open_in_root.hpp"

namespace graft {

namespace {

void log_from_plugin(void* host, int level, const char* message) noexcept {
  try {
    auto* services = static_cast<HostServices*>(host);
    const char* name = services ? services->plugin_name().c_str() : "?";
    const char* text = message ? message : "";
    switch (level) {
      case GRAFT_LOG_DEBUG: spdlog::debug("plugin {}: {}", name, text); break;
      case GRAFT_LOG_INFO: spdlog::info("plugin {}: {}", name, text); break;
      case GRAFT_LOG_WARNING:
        spdlog::warn("plugin {}: {}", name, text);
        if (services != nullptr) services->keep_warning(fmt::format("plugin {}: {}", name, text));
        break;
      default: spdlog::error("plugin {}: {}", name, text); break;
    }
  } catch (...) {
    // Logging is best effort; a plugin must never see a host exception.
  }
}

// graft_base's open_in_root, EAGAIN retry included: every plugin gets the
// same rule, C plugins without plugins/common's glue as well.
int resolve_for_plugin(void* /*host*/, int root_fd, const char* path, int flags) noexcept {
  return open_in_root(root_fd, path, flags);
}

}  // namespace

HostServices::HostServices(std::string plugin_name) : plugin_name_(std::move(plugin_name)) {
  table_.struct_size = sizeof(graft_host_services);
  table_.host = this;
  table_.log = log_from_plugin;
  table_.resolve_in_root = resolve_for_plugin;
}

}  // namespace graft
