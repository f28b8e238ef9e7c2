// SPDX-License-Identifier: Apache-2.0
// What a container's device cgroup allows now, for `graft verify`: on
// cgroup v1 its devices.list (device_list_v1.hpp), on v2 every device
// program the kernel runs for the cgroup (BPF_PROG_QUERY with
// BPF_F_QUERY_EFFECTIVE: its own and its ancestors'), read back and asked
// through the interpreter (device_interpreter.hpp), following tail calls
// into the program arrays they name (graft's own wrapper makes one).
// Nothing is opened or attached: only read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "container_cgroup.hpp"
#include "device_interpreter.hpp"
#include "device_list_v1.hpp"
#include "graft/base/error.hpp"

namespace graft::cgroup {

class DeviceAccess {
 public:
  // Reads the cgroup's list or programs. The error says what could not be
  // read and why (privileges, a program of another type).
  static Result<DeviceAccess> read(const ContainerCgroup& cgroup);

  // Whether the cgroup grants `question` now; `unknown` names what the
  // interpreter could not follow.
  Verdict allows(const DeviceQuestion& question) const;

 private:
  using Slot = std::pair<std::uint32_t, std::uint32_t>;  // map id, key

  Result<const NamedProgram*> tail_call_target(std::uint32_t map_id, std::uint32_t key) const;

  CgroupMode mode_ = CgroupMode::v1;
  std::vector<ListedException> list_;  // v1
  std::vector<NamedProgram> programs_;  // v2: effective, in the kernel's order
  // v2: program-array slots read so far (nullptr: an empty slot).
  mutable std::map<Slot, std::unique_ptr<NamedProgram>> slots_;
};

}  // namespace graft::cgroup
