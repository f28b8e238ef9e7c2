// SPDX-License-Identifier: Apache-2.0
// The services graft offers plugins (graft_host_services): logging attributed
// to the plugin, and path resolution confined to a container root
// (graft_base's open_in_root). A plugin's warnings are also kept: they go
// into the container's audit record (a route that cannot keep what it gave
// says so there).
#pragma once

#include <string>
#include <vector>

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

  // Called from log_from_plugin: "plugin NAME: TEXT" at warning level.
  void keep_warning(std::string line) { warnings_.push_back(std::move(line)); }
  // The warnings kept so far, handed over once.
  std::vector<std::string> take_warnings() { return std::move(warnings_); }

 private:
  std::string plugin_name_;
  std::vector<std::string> warnings_;
  graft_host_services table_{};
};

}  // namespace graft
