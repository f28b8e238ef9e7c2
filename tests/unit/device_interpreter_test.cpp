// SPDX-License-Identifier: Apache-2.0
// The user-space interpreter `graft verify` asks cgroup v2 device programs
// with (plugins/cgroup/device_interpreter.hpp), on hand-assembled programs:
// what it allows and denies, how several attached programs combine, how it
// follows a tail call, and that it answers "unknown", naming the
// instruction, for anything outside the subset instead of guessing.
#include <catch2/catch.hpp>

#include <linux/bpf.h>

#include <map>

#include "cgroup_support.hpp"
#include "device_interpreter.hpp"

using namespace graft;
using namespace graft::cgroup;

namespace {


bpf_insn interp_exit() { return cgroup_test::insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }
bpf_insn interp_return(std::int32_t value) {
  return cgroup_test::insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, value);
}

// runc's shape: allow `c major:minor` for the access letters in `bits`
// (r2 = type, r3 = access, r4 = major, r5 = minor), deny the rest.
NamedProgram runc_style(std::uint32_t major, std::uint32_t minor, std::uint32_t bits,
                        const std::string& name = "program 7") {
  return {name,
          {cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 0, 0),
           cgroup_test::insn(BPF_ALU | BPF_AND | BPF_K, 2, 0, 0, 0xffff),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 3, 1, 0, 0),
           cgroup_test::insn(BPF_ALU | BPF_RSH | BPF_K, 3, 0, 0, 16),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 4, 1, 4, 0),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 5, 1, 8, 0),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 2, 0, 7, BPF_DEVCG_DEV_CHAR),
           // if (r3 & bits) != r3: the access asks for more than the rule gives
           cgroup_test::insn(BPF_ALU | BPF_MOV | BPF_X, 1, 3, 0, 0),
           cgroup_test::insn(BPF_ALU | BPF_AND | BPF_K, 1, 0, 0, static_cast<std::int32_t>(bits)),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_X, 1, 3, 4, 0),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 3, static_cast<std::int32_t>(major)),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 5, 0, 2, static_cast<std::int32_t>(minor)),
           interp_return(1), interp_exit(), interp_return(0), interp_exit()}};
}

DeviceQuestion char_device(std::uint32_t major, std::uint32_t minor, std::uint32_t access) {
  return {.type_bit = BPF_DEVCG_DEV_CHAR, .access_bits = access, .major = major, .minor = minor};
}

constexpr std::uint32_t kRead = BPF_DEVCG_ACC_READ, kWrite = BPF_DEVCG_ACC_WRITE,
                        kMknod = BPF_DEVCG_ACC_MKNOD;

Verdict::Kind verdict_of(const NamedProgram& program, const DeviceQuestion& question) {
  return run_device_program(program, question).kind;
}

// graft's wrapper shape: allow c 195:1 rw itself, else tail-call slot 0 of
// map 9 (r1 = ctx kept in r6), deny when the call falls through.
NamedProgram wrapper_style() {
  return {"program 20",
          {cgroup_test::insn(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 2, 6, 0, 0),
           cgroup_test::insn(BPF_ALU | BPF_MOV | BPF_X, 3, 2, 0, 0),
           cgroup_test::insn(BPF_ALU | BPF_AND | BPF_K, 3, 0, 0, 0xffff),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 4, 6, 4, 0),
           cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 5, 6, 8, 0),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 3, 0, 4, BPF_DEVCG_DEV_CHAR),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 3, 195),
           cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_K, 5, 0, 2, 1),
           interp_return(1), interp_exit(),
           cgroup_test::insn(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
           cgroup_test::insn(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_FD, 0, 9),  // map id 9
           cgroup_test::insn(0, 0, 0, 0, 0),
           cgroup_test::insn(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0),
           cgroup_test::insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
           interp_return(0), interp_exit()}};
}

}  // namespace

TEST_CASE("a device program that allows one device allows exactly it, for the access it lists",
          "[verify][interpreter]") {
  NamedProgram program = runc_style(195, 1, kRead | kWrite);
  CHECK(verdict_of(program, char_device(195, 1, kRead | kWrite)) == Verdict::Kind::allow);
  CHECK(verdict_of(program, char_device(195, 1, kRead)) == Verdict::Kind::allow);
  CHECK(verdict_of(program, char_device(195, 1, kRead | kMknod)) == Verdict::Kind::deny);
  CHECK(verdict_of(program, char_device(195, 2, kRead)) == Verdict::Kind::deny);
  DeviceQuestion block = char_device(195, 1, kRead);
  block.type_bit = BPF_DEVCG_DEV_BLOCK;
  CHECK(verdict_of(program, block) == Verdict::Kind::deny);
}

TEST_CASE("a device program that returns 0 denies and one that returns 1 allows",
          "[verify][interpreter]") {
  CHECK(verdict_of({"deny", {interp_return(0), interp_exit()}}, char_device(1, 3, kRead)) ==
        Verdict::Kind::deny);
  CHECK(verdict_of({"allow", {interp_return(1), interp_exit()}}, char_device(1, 3, kRead)) ==
        Verdict::Kind::allow);
}

TEST_CASE("with several programs attached, access needs every one of them to allow it",
          "[verify][interpreter]") {
  std::vector<NamedProgram> both{runc_style(195, 1, kRead | kWrite, "program 1"),
                                 runc_style(195, 1, kRead, "program 2")};
  CHECK(run_all(both, char_device(195, 1, kRead)).kind == Verdict::Kind::allow);
  CHECK(run_all(both, char_device(195, 1, kRead | kWrite)).kind == Verdict::Kind::deny);
  CHECK(run_all({}, char_device(195, 1, kRead)).kind == Verdict::Kind::allow);
}

TEST_CASE("a deny by one program wins over another program graft cannot interpret",
          "[verify][interpreter]") {
  NamedProgram store{"program 3",
                     {cgroup_test::insn(BPF_STX | BPF_W | BPF_MEM, 10, 1, -4, 0), interp_return(1),
                      interp_exit()}};
  NamedProgram deny{"program 4", {interp_return(0), interp_exit()}};
  CHECK(run_all({store, deny}, char_device(195, 1, kRead)).kind == Verdict::Kind::deny);
  Verdict alone = run_all({store, {"program 5", {interp_return(1), interp_exit()}}},
                          char_device(195, 1, kRead));
  CHECK(alone.kind == Verdict::Kind::unknown);
  CHECK_THAT(alone.why, Catch::Contains("program 3 instruction 0"));
}

TEST_CASE("a tail call runs the program in the array's slot, and an empty slot falls through",
          "[verify][interpreter]") {
  NamedProgram runtime = runc_style(1, 3, kRead | kWrite | kMknod, "program 21");
  std::map<std::pair<std::uint32_t, std::uint32_t>, const NamedProgram*> slots{{{9, 0}, &runtime}};
  TailCallLookup lookup = [&](std::uint32_t map, std::uint32_t key) -> Result<const NamedProgram*> {
    auto found = slots.find({map, key});
    return found == slots.end() ? nullptr : found->second;
  };
  NamedProgram wrapper = wrapper_style();
  CHECK(run_device_program(wrapper, char_device(195, 1, kRead | kWrite), lookup).kind ==
        Verdict::Kind::allow);
  CHECK(run_device_program(wrapper, char_device(1, 3, kRead), lookup).kind == Verdict::Kind::allow);
  CHECK(run_device_program(wrapper, char_device(195, 2, kRead), lookup).kind == Verdict::Kind::deny);
  slots.clear();  // the runtime's program gone from the array: the wrapper denies
  CHECK(run_device_program(wrapper, char_device(1, 3, kRead), lookup).kind == Verdict::Kind::deny);
}

TEST_CASE("a tail call into a program array graft cannot read is unknown, naming why",
          "[verify][interpreter]") {
  TailCallLookup unreadable = [](std::uint32_t, std::uint32_t) -> Result<const NamedProgram*> {
    return make_error("BPF_MAP_GET_FD_BY_ID 9: Operation not permitted");
  };
  Verdict verdict = run_device_program(wrapper_style(), char_device(1, 3, kRead), unreadable);
  CHECK(verdict.kind == Verdict::Kind::unknown);
  CHECK_THAT(verdict.why, Catch::Contains("Operation not permitted"));
  // Its own rule still answers without the call.
  CHECK(run_device_program(wrapper_style(), char_device(195, 1, kRead), unreadable).kind ==
        Verdict::Kind::allow);
}

TEST_CASE("instructions outside the interpreted subset make the answer unknown, never a guess",
          "[verify][interpreter]") {
  const DeviceQuestion question = char_device(195, 1, kRead);
  struct Case {
    const char* what;
    std::vector<bpf_insn> program;
    const char* says;
  };
  const std::vector<Case> cases{
      {"a store", {cgroup_test::insn(BPF_ST | BPF_W | BPF_MEM, 10, 0, -4, 1), interp_return(1), interp_exit()},
       "stores to memory"},
      {"a helper call", {cgroup_test::insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_uid_gid), interp_exit()},
       "other than bpf_tail_call"},
      {"a load from the stack", {cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 0, 10, -8, 0), interp_exit()},
       "other than the context"},
      {"a load past the context", {cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 0, 1, 12, 0), interp_exit()},
       "outside struct bpf_cgroup_dev_ctx"},
      {"an unset register", {cgroup_test::insn(BPF_ALU64 | BPF_ADD | BPF_X, 0, 7, 0, 0), interp_exit()},
       "unset register"},
      {"a jump out of the program", {cgroup_test::insn(BPF_JMP | BPF_JA, 0, 0, 5, 0), interp_exit()},
       "jumps outside the program"},
      {"no exit", {interp_return(1)}, "runs past its last instruction"},
      {"an endless loop", {cgroup_test::insn(BPF_JMP | BPF_JA, 0, 0, -1, 0)}, "did not finish within"},
      {"returning the context", {cgroup_test::insn(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 0, 0), interp_exit()},
       "returns a pointer"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Verdict verdict = run_device_program({"program 8", c.program}, question);
    CHECK(verdict.kind == Verdict::Kind::unknown);
    CHECK_THAT(verdict.why, Catch::Contains("program 8") && Catch::Contains(c.says));
  }
}

TEST_CASE("32-bit operations see the low halves and blinded constants through r11 still compare",
          "[verify][interpreter]") {
  // What the kernel makes of `if r4 != 195` under constant blinding:
  // r11 = 195 ^ K; r11 ^= K; if r4 != r11.
  const std::int32_t key = 0x5a5a1234;
  NamedProgram blinded{"program 30",
                       {cgroup_test::insn(BPF_LDX | BPF_W | BPF_MEM, 4, 1, 4, 0),
                        cgroup_test::insn(BPF_ALU | BPF_MOV | BPF_K, 11, 0, 0, 195 ^ key),
                        cgroup_test::insn(BPF_ALU | BPF_XOR | BPF_K, 11, 0, 0, key),
                        cgroup_test::insn(BPF_JMP | BPF_JNE | BPF_X, 4, 11, 2, 0),
                        interp_return(1), interp_exit(), interp_return(0), interp_exit()}};
  CHECK(verdict_of(blinded, char_device(195, 0, kRead)) == Verdict::Kind::allow);
  CHECK(verdict_of(blinded, char_device(196, 0, kRead)) == Verdict::Kind::deny);
  // r2 = 1 << 32: a JMP32 compare sees its low half, 0, so the jump is not taken.
  NamedProgram halves{"program 31",
                      {cgroup_test::insn(BPF_LD | BPF_DW | BPF_IMM, 2, 0, 0, 0),
                       cgroup_test::insn(0, 0, 0, 0, 1),
                       cgroup_test::insn(BPF_JMP32 | BPF_JNE | BPF_K, 2, 0, 2, 0),
                       interp_return(1), interp_exit(), interp_return(0), interp_exit()}};
  CHECK(verdict_of(halves, char_device(1, 1, kRead)) == Verdict::Kind::allow);
  // 0xffffffff + 1 in 32 bits is 0, zero-extended.
  NamedProgram wraps{"program 32",
                     {cgroup_test::insn(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, -1),
                      cgroup_test::insn(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 0, 1), interp_exit()}};
  CHECK(verdict_of(wraps, char_device(1, 1, kRead)) == Verdict::Kind::deny);
}
