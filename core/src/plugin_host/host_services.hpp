// The services graft offers plugins (graft_host_services): logging attributed
// to the plugin, and path resolution confined to a container root
// (graft_base's open_in_root).
#pragma once

#include <string>

#include "graft/plugin.h"

namespace graft {

// One plugin's services table; `host` points at this object so log lines name
// the plugin. Kept at a stable address for the plugin's lifetime.
class HostServices {
 public:
  explicit HostServices(std::string plugin_name);
  HostServices(const HostServices&) = delete;
  HostServices& operator=(const HostServices&) = delete;

  const graft_host_services* get() const { return &table_; }
  const std::string& plugin_name() const { return plugin_name_; }

 private:
  std::string plugin_name_;
  graft_host_services table_{};
};

}  // namespace graft
