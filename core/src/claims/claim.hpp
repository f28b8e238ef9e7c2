// SPDX-License-Identifier: Apache-2.0
// A claim under [exclusive] gpus: which GPU or partition a container holds,
// and who holds it. The holder is named by the container's id and proved
// alive by its init process: the pid and that process's start time, so a
// pid the kernel handed to another process since is not taken for the
// holder. Pure: the text of a claim file and the rules of conflict.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"
#include "inventory/inventory.hpp"
#include "intent/intent.hpp"

namespace graft {

struct Holder {
  std::string container_id;
  int pid = 0;
  std::uint64_t start_time = 0;  // /proc/<pid>/stat field 22, in clock ticks since boot

  bool operator==(const Holder&) const = default;
};

// "container ID\npid N\nstart T\n": what a claim file holds.
std::string claim_text(const Holder& holder);
// The holder a claim file names; an error says what is malformed.
Result<Holder> parse_claim(std::string_view text);

// Field 22 of a /proc/<pid>/stat line, the process's start time. The
// command name (field 2) may hold spaces and ')', so fields count from the
// last ')'.
Result<std::uint64_t> stat_start_time(std::string_view stat);

// One granted GPU or partition as a claim file: `file` is its name in the
// state directory, `gpu_file` the whole GPU's, `label` how a refusal names it.
struct ClaimKey {
  std::string file;
  std::string gpu_file;
  bool partition = false;
  std::string label;  // "GPU 0 (GPU-6f1c...)", "GPU 0 partition 2"

  bool operator==(const ClaimKey&) const = default;
};

// The claims a container's granted devices need, one per grant, in grant
// order. A GPU is named by its UUID, else its bus id, else its index; only
// [A-Za-z0-9._-] reach a file name.
std::vector<ClaimKey> claim_keys(const std::vector<DeviceGrant>& grants, const Inventory& inventory);

// Whether an existing claim file `existing` stands in the way of `wanted`:
// the same GPU or partition, a whole GPU against one of its partitions, or
// a partition against its whole GPU. Two partitions of one GPU do not.
bool claims_conflict(const ClaimKey& wanted, std::string_view existing);

}  // namespace graft
