// SPDX-License-Identifier: Apache-2.0
// One device cgroup rule as a cgroup_allow action carries it: type, numbers
// and access, checked once so both backends can trust it; and the question
// one access asks the kernel, which `graft verify` asks both backends.
#pragma once

#include <cstdint>
#include <string>

#include "graft/base/error.hpp"
#include "graft/plugin.h"

namespace graft::cgroup {

struct DeviceRule {
  char type = 'c';      // 'c' or 'b'
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::string access;   // letters of "rwm", each at most once, in the action's order
  std::uint32_t access_bits = 0;  // BPF_DEVCG_ACC_* of `access`
  std::uint32_t type_bit = 0;     // BPF_DEVCG_DEV_CHAR or BPF_DEVCG_DEV_BLOCK

  // "c 195:1 rw", the form devices.allow takes and messages show.
  std::string text() const;
};

// The rule of one cgroup_allow action, or why it is not a valid rule.
Result<DeviceRule> rule_of(const graft_action& action);

// One access the kernel checks, in bpf_cgroup_dev_ctx's terms (the v1
// controller's DEVCG_* numbers are the same).
struct DeviceQuestion {
  std::uint32_t type_bit = 0;     // BPF_DEVCG_DEV_CHAR or BPF_DEVCG_DEV_BLOCK
  std::uint32_t access_bits = 0;  // BPF_DEVCG_ACC_* requested together
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
};

// The question of `rule` for `access_bits` (all of the rule's by default).
DeviceQuestion question_of(const DeviceRule& rule);
DeviceQuestion question_of(const DeviceRule& rule, std::uint32_t access_bits);

// BPF_DEVCG_ACC_* bits as letters in the order "rwm" ("" for none).
std::string access_letters(std::uint32_t access_bits);

}  // namespace graft::cgroup
