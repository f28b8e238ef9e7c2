// SPDX-License-Identifier: Apache-2.0
// Raw BPF without libbpf: instruction constructors for the few forms the
// device filter uses, and thin bpf(2) wrappers that return owned fds or
// errors naming the command (also the reads `graft verify` makes of the
// programs attached to a cgroup). Nothing here knows about cgroups' meaning.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::cgroup::bpf {

using Program = std::vector<bpf_insn>;

// Instructions. Registers are BPF_REG_0..10; jump offsets count instructions
// after the jump.
bpf_insn mov64_reg(int dst, int src);
bpf_insn mov64_imm(int dst, std::int32_t imm);
bpf_insn mov32_reg(int dst, int src);
bpf_insn alu32_imm(int op, int dst, std::int32_t imm);  // op: BPF_AND, BPF_RSH, ...
bpf_insn load_u32(int dst, int src, std::int16_t offset);  // dst = *(u32*)(src + offset)
bpf_insn jne_imm(int dst, std::int32_t imm, std::int16_t offset);  // 64-bit compare
bpf_insn call(std::int32_t helper);
bpf_insn exit();
// dst = the map behind map_fd (two instructions, appended).
void load_map_fd(Program& program, int dst, int map_fd);

// BPF_PROG_LOAD with a verifier log. On failure the error carries errno and
// the verifier's own complaint (the log's last message line).
Result<UniqueFd> load_program(bpf_prog_type type, const Program& program, const char* license,
                              std::uint32_t expected_attach_type = 0);

// A one-slot-per-key BPF_MAP_TYPE_PROG_ARRAY and storing a program in it.
Result<UniqueFd> create_prog_array(std::uint32_t entries);
Status set_prog_array_entry(int map_fd, std::uint32_t key, int prog_fd);

struct Attached {
  std::vector<std::uint32_t> ids;  // programs attached directly to the target
  std::uint32_t flags = 0;         // their attach flags (BPF_F_ALLOW_MULTI, ...)
};
// BPF_PROG_QUERY on a cgroup fd (an O_PATH fd works). With `effective`
// (BPF_F_QUERY_EFFECTIVE), every program the kernel runs for the cgroup,
// its ancestors' included; flags are then not reported.
Result<Attached> query_programs(int target_fd, bpf_attach_type type, bool effective = false);
Result<UniqueFd> program_by_id(std::uint32_t id);

// What BPF_OBJ_GET_INFO_BY_FD says of a program: its type and its
// instructions as the kernel runs them ("xlated": after the verifier's
// rewrites; maps named by id, tail calls as calls of bpf_tail_call).
struct ProgramInfo {
  std::uint32_t type = 0;  // enum bpf_prog_type
  Program instructions;
};
Result<ProgramInfo> program_info(int prog_fd);

// BPF_MAP_GET_FD_BY_ID, and the type of the map behind an fd.
Result<UniqueFd> map_by_id(std::uint32_t id);
Result<std::uint32_t> map_type(int map_fd);
// The id of the program in slot `key` of a program array; nullopt when the
// slot is empty.
Result<std::optional<std::uint32_t>> prog_array_entry(int map_fd, std::uint32_t key);
// BPF_PROG_ATTACH; replace_fd is used (with BPF_F_REPLACE) when >= 0.
Status attach_program(int target_fd, int prog_fd, bpf_attach_type type, std::uint32_t flags,
                      int replace_fd = -1);
// BPF_OBJ_PIN of `object_fd` as `name` in the bpf filesystem directory `dir_fd`.
Status pin_object(int dir_fd, const std::string& name, int object_fd);

}  // namespace graft::cgroup::bpf
