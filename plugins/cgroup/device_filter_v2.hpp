// SPDX-License-Identifier: Apache-2.0
// cgroup v2 device rules: wrap each BPF device program attached to the
// container's cgroup in one that allows our rules first (design at the top
// of device_filter_v2.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "bpf_program.hpp"
#include "device_rule.hpp"

namespace graft::cgroup {

// The wrapper: returns 1 for a request one of `rules` covers (same type and
// numbers, requested access a subset of the rule's), else tail-calls slot 0
// of the prog array `map_fd`, and returns 0 when that call fails.
bpf::Program wrapper_program(const std::vector<DeviceRule>& rules, int map_fd);

struct FilterTarget {
  int cgroup_fd = -1;       // O_PATH fd of the container's cgroup (cgroup2)
  std::string cgroup_path;  // for messages
  int bpffs_fd = -1;        // O_PATH fd of a bpf filesystem directory, -1 when none
  std::string bpffs_path;   // for messages
  std::string bpffs_error;  // why bpffs_fd is -1
};

// Installs `rules` for the container. Returns how many attached programs
// were wrapped (0: no device filter attached, nothing to do).
Result<size_t> install_device_rules(const FilterTarget& target, const std::vector<DeviceRule>& rules,
                                    const std::function<void(const std::string&)>& debug);

}  // namespace graft::cgroup
