// SPDX-License-Identifier: Apache-2.0
// Checking a cgroup_allow action into a DeviceRule, and the questions it asks.
#include "device_rule.hpp"

#include <linux/bpf.h>

#include <fmt/format.h>

namespace graft::cgroup {

std::string DeviceRule::text() const {
  return fmt::format("{} {}:{} {}", type, major, minor, access);
}

Result<DeviceRule> rule_of(const graft_action& action) {
  DeviceRule rule;
  const std::string target = action.target ? action.target : "";
  if (action.device_type != 'c' && action.device_type != 'b')
    return make_error("cgroup rule '{}': device type must be 'c' or 'b'", target);
  rule.type = action.device_type;
  rule.type_bit = rule.type == 'c' ? BPF_DEVCG_DEV_CHAR : BPF_DEVCG_DEV_BLOCK;
  // Linux device numbers: 12-bit major, 20-bit minor.
  if (action.major >= (1u << 12) || action.minor >= (1u << 20))
    return make_error("cgroup rule '{}': device number {}:{} out of range", target, action.major,
                      action.minor);
  rule.major = action.major;
  rule.minor = action.minor;
  const std::string access = action.access ? action.access : "";
  if (access.empty()) return make_error("cgroup rule '{}': empty access", target);
  for (char letter : access) {
    std::uint32_t bit = letter == 'r'   ? BPF_DEVCG_ACC_READ
                        : letter == 'w' ? BPF_DEVCG_ACC_WRITE
                        : letter == 'm' ? BPF_DEVCG_ACC_MKNOD
                                        : 0;
    if (bit == 0 || (rule.access_bits & bit) != 0)
      return make_error("cgroup rule '{}': access '{}' is not a set of r, w, m", target, access);
    rule.access_bits |= bit;
  }
  rule.access = access;
  return rule;
}

DeviceQuestion question_of(const DeviceRule& rule) { return question_of(rule, rule.access_bits); }

DeviceQuestion question_of(const DeviceRule& rule, std::uint32_t access_bits) {
  return {.type_bit = rule.type_bit, .access_bits = access_bits, .major = rule.major,
          .minor = rule.minor};
}

std::string access_letters(std::uint32_t access_bits) {
  std::string letters;
  if (access_bits & BPF_DEVCG_ACC_READ) letters += 'r';
  if (access_bits & BPF_DEVCG_ACC_WRITE) letters += 'w';
  if (access_bits & BPF_DEVCG_ACC_MKNOD) letters += 'm';
  return letters;
}

}  // namespace graft::cgroup
