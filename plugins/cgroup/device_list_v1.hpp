// SPDX-License-Identifier: Apache-2.0
// cgroup v1: what a devices cgroup allows, read back from devices.list.
// The kernel prints a cgroup whose default is to allow (no "a" written to
// devices.deny) as the single line "a *:* rwm", and then hides the
// exceptions it denies, so such a list can only be read as "everything".
// Otherwise each line is one allowed exception, "c 195:1 rw" or "c 195:* m",
// merged per device, and an access is allowed when one line covers its type,
// numbers and every access letter asked together (the kernel's
// match_exception).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device_rule.hpp"
#include "graft/base/error.hpp"

namespace graft::cgroup {

struct ListedException {
  char type = 'a';                     // 'a' (everything: the default allows), 'c' or 'b'
  std::optional<std::uint32_t> major;  // nullopt for '*'
  std::optional<std::uint32_t> minor;
  std::uint32_t access_bits = 0;       // BPF_DEVCG_ACC_* (the same bits as v1's DEVCG_ACC_*)
};

// The lines of a devices.list text; an error names the line it cannot read.
Result<std::vector<ListedException>> parse_device_list(std::string_view text);

// Whether the list grants `question` (all its access bits together).
bool list_allows(const std::vector<ListedException>& list, const DeviceQuestion& question);

// Reads devices.list below the cgroup fd `cgroup_fd` (`path` names it).
Result<std::vector<ListedException>> read_device_list(int cgroup_fd, const std::string& path);

}  // namespace graft::cgroup
