// SPDX-License-Identifier: Apache-2.0
// A small, bounded user-space interpreter for cgroup v2 device programs
// (BPF_PROG_TYPE_CGROUP_DEVICE), so `graft verify` can ask the programs the
// kernel runs for a container whether a device access is still allowed,
// without opening any device. It understands the subset runc, crun, systemd
// and graft's own wrapper (device_filter_v2.cpp) are made of, as the kernel
// reports them back (BPF_OBJ_GET_INFO_BY_FD, xlated instructions):
//   ALU and ALU64 (both sources; including the BPF_REG_AX (r11) the kernel
//   uses when it blinds constants), JMP and JMP32, LDX of 1, 2 or 4 bytes
//   from the context (struct bpf_cgroup_dev_ctx: access_type, major, minor),
//   LD_IMM64 of a constant or a map, EXIT, and bpf_tail_call through a
//   program array (the slot's program is run in turn, as the kernel would).
// Anything else (stores, the stack, other helpers, bpf-to-bpf calls, signed
// division, more than kMaxSteps instructions) makes the answer `unknown`,
// naming the instruction: never a guess.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bpf_program.hpp"
#include "device_rule.hpp"
#include "graft/base/error.hpp"

namespace graft::cgroup {

struct Verdict {
  enum class Kind { allow, deny, unknown };
  Kind kind = Kind::unknown;
  std::string why;  // unknown: what could not be followed
};

// Instructions run before the answer is `unknown` (all programs of one
// run, tail calls included). The kernel's own bound on one program's size
// is a million; the programs runtimes write run a few dozen.
inline constexpr std::size_t kMaxSteps = 1u << 20;
// Tail calls the kernel follows in a row (MAX_TAIL_CALL_CNT); one more falls through.
inline constexpr unsigned kMaxTailCalls = 33;

// A program and the name an unknown's reason gives it ("program 42").
struct NamedProgram {
  std::string name;
  bpf::Program program;
};

// The program in slot `key` of the program array with id `map_id`; nullptr
// for an empty slot (the tail call falls through); an error when it cannot
// be read (the answer is then `unknown`, with that message).
using TailCallLookup = std::function<Result<const NamedProgram*>(std::uint32_t map_id,
                                                                 std::uint32_t key)>;

// Runs `program` on `question`. Without `lookup` every tail call is `unknown`.
Verdict run_device_program(const NamedProgram& program, const DeviceQuestion& question,
                           const TailCallLookup& lookup = {});

// The kernel runs every program attached to the cgroup and its ancestors
// (BPF_F_ALLOW_MULTI) and grants only what all of them allow: one deny is
// a deny, else one unknown is unknown, else allow. No program: allow.
Verdict run_all(const std::vector<NamedProgram>& programs, const DeviceQuestion& question,
                const TailCallLookup& lookup = {});

}  // namespace graft::cgroup
