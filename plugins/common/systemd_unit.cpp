// SPDX-License-Identifier: Apache-2.0
// Units and their names (systemd_unit.hpp).
#include "systemd_unit.hpp"

#include <fmt/format.h>

namespace graft::cgroup {

std::optional<std::string> unit_of_cgroup(std::string_view cgroup_path) {
  auto slash = cgroup_path.rfind('/');
  std::string_view last = slash == std::string_view::npos ? cgroup_path : cgroup_path.substr(slash + 1);
  for (std::string_view suffix : {".scope", ".service"})
    if (last.size() > suffix.size() && last.ends_with(suffix)) return std::string(last);
  return std::nullopt;
}

std::string device_allow_path(char type, std::uint32_t major, std::uint32_t minor) {
  return fmt::format("/dev/{}/{}:{}", type == 'b' ? "block" : "char", major, minor);
}

}  // namespace graft::cgroup
