// SPDX-License-Identifier: Apache-2.0
// The device program interpreter (device_interpreter.hpp). Registers carry
// what they hold (a number, the context pointer, a map, the stack pointer),
// so an instruction that would need memory or a pointer value graft does
// not model stops the run with `unknown` instead of inventing a number.
#include "device_interpreter.hpp"

#include <linux/bpf.h>

#include <array>
#include <bit>
#include <cstring>
#include <optional>

#include <fmt/format.h>

namespace graft::cgroup {
namespace {

constexpr int kRegisters = 12;  // r0-r10, and r11: the kernel's BPF_REG_AX
constexpr std::uint8_t kJmp32Ja = BPF_JMP32 | BPF_JA;

struct Value {
  enum class Tag { unset, number, context, map, stack };
  Tag tag = Tag::unset;
  std::uint64_t bits = 0;  // a number, or a map's id
};

Value number(std::uint64_t bits) { return {Value::Tag::number, bits}; }

// One step's result: go on at `next`, or stop with a verdict.
struct Step {
  std::optional<Verdict> verdict;
  std::size_t next = 0;
};

Step stop(Verdict::Kind kind, std::string why = {}) { return {Verdict{kind, std::move(why)}, 0}; }
Step go(std::size_t next) { return {std::nullopt, next}; }

std::uint64_t alu_result(std::uint8_t op, std::uint64_t a, std::uint64_t b, bool wide) {
  const unsigned mask = wide ? 63 : 31;
  switch (op) {
    case BPF_ADD: return a + b;
    case BPF_SUB: return a - b;
    case BPF_MUL: return a * b;
    case BPF_DIV: return b == 0 ? 0 : a / b;
    case BPF_MOD: return b == 0 ? a : a % b;
    case BPF_OR: return a | b;
    case BPF_AND: return a & b;
    case BPF_XOR: return a ^ b;
    case BPF_LSH: return a << (b & mask);
    case BPF_RSH: return a >> (b & mask);
    case BPF_NEG: return -a;
    case BPF_MOV: return b;
    case BPF_ARSH:
      return wide ? static_cast<std::uint64_t>(static_cast<std::int64_t>(a) >> (b & mask))
                  : static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (b & mask));
    default: return 0;  // not reached: alu() refuses other ops first
  }
}

std::uint64_t byte_swap(std::uint64_t value, std::int32_t width) {
  switch (width) {
    case 16: return __builtin_bswap16(static_cast<std::uint16_t>(value));
    case 32: return __builtin_bswap32(static_cast<std::uint32_t>(value));
    default: return __builtin_bswap64(value);
  }
}

std::uint64_t truncated(std::uint64_t value, std::int32_t width) {
  return width == 64 ? value : value & ((std::uint64_t{1} << width) - 1);
}

bool compare(std::uint8_t op, std::uint64_t a, std::uint64_t b, bool wide) {
  if (!wide) a = static_cast<std::uint32_t>(a), b = static_cast<std::uint32_t>(b);
  const std::int64_t sa = wide ? static_cast<std::int64_t>(a) : static_cast<std::int32_t>(a);
  const std::int64_t sb = wide ? static_cast<std::int64_t>(b) : static_cast<std::int32_t>(b);
  switch (op) {
    case BPF_JEQ: return a == b;
    case BPF_JNE: return a != b;
    case BPF_JGT: return a > b;
    case BPF_JGE: return a >= b;
    case BPF_JLT: return a < b;
    case BPF_JLE: return a <= b;
    case BPF_JSGT: return sa > sb;
    case BPF_JSGE: return sa >= sb;
    case BPF_JSLT: return sa < sb;
    case BPF_JSLE: return sa <= sb;
    default: return (a & b) != 0;  // BPF_JSET; jump() refuses other ops first
  }
}

bool known_compare(std::uint8_t op) {
  for (std::uint8_t known : {BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSGT,
                             BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET})
    if (op == known) return true;
  return false;
}

class Machine {
 public:
  Machine(const DeviceQuestion& question, const TailCallLookup& lookup)
      : lookup_(lookup) {
    bpf_cgroup_dev_ctx context{};
    context.access_type = question.access_bits << 16 | question.type_bit;
    context.major = question.major;
    context.minor = question.minor;
    static_assert(sizeof context == sizeof context_);
    std::memcpy(context_.data(), &context, sizeof context);
  }

  Verdict run(const NamedProgram& first) {
    start(first);
    std::size_t pc = 0;
    for (std::size_t steps = 0; steps < kMaxSteps; ++steps) {
      if (pc >= program_->size())
        return unknown_at(pc, "runs past its last instruction");
      Step step = execute(pc);
      if (step.verdict) return *step.verdict;
      pc = step.next;
    }
    return {Verdict::Kind::unknown,
            fmt::format("{} did not finish within {} instructions", name_, kMaxSteps)};
  }

 private:
  void start(const NamedProgram& program) {
    program_ = &program.program;
    name_ = program.name;
    registers_ = {};
    registers_[BPF_REG_1] = {Value::Tag::context, 0};
    registers_[BPF_REG_10] = {Value::Tag::stack, 0};
  }

  Verdict unknown_at(std::size_t pc, const std::string& what) const {
    const bpf_insn& insn = pc < program_->size() ? (*program_)[pc] : bpf_insn{};
    return {Verdict::Kind::unknown,
            fmt::format("{} instruction {} (code {:#04x}) {}", name_, pc, insn.code, what)};
  }
  Step unknown(std::size_t pc, const std::string& what) const {
    Verdict verdict = unknown_at(pc, what);
    return stop(verdict.kind, verdict.why);
  }

  Step execute(std::size_t pc) {
    const bpf_insn& insn = (*program_)[pc];
    if (insn.dst_reg >= kRegisters || insn.src_reg >= kRegisters)
      return unknown(pc, "names a register that does not exist");
    switch (BPF_CLASS(insn.code)) {
      case BPF_ALU:
      case BPF_ALU64: return alu(pc, insn);
      case BPF_JMP:
      case BPF_JMP32: return jump(pc, insn);
      case BPF_LDX: return load_context(pc, insn);
      case BPF_LD: return load_immediate(pc, insn);
      default: return unknown(pc, "stores to memory, which graft does not interpret");
    }
  }

  // The second operand: the source register or the (sign-extended) immediate.
  std::optional<Value> operand(const bpf_insn& insn) const {
    if (BPF_SRC(insn.code) == BPF_X) return registers_[insn.src_reg];
    return number(static_cast<std::uint64_t>(static_cast<std::int64_t>(insn.imm)));
  }

  Step alu(std::size_t pc, const bpf_insn& insn) {
    const bool wide = BPF_CLASS(insn.code) == BPF_ALU64;
    const std::uint8_t op = BPF_OP(insn.code);
    Value& dst = registers_[insn.dst_reg];
    if (op == BPF_END) return byte_order(pc, insn, dst, wide);
    if (insn.off != 0) return unknown(pc, "is a signed division or sign-extending move (cpu v4)");
    if (op > BPF_ARSH) return unknown(pc, "is an ALU operation graft does not know");
    Value src = *operand(insn);
    if (op == BPF_MOV && wide) {
      if (src.tag == Value::Tag::unset) return unknown(pc, "reads a register never written");
      dst = src;  // a 64-bit move keeps what the value is (the context pointer, say)
      return go(pc + 1);
    }
    if ((op != BPF_MOV && dst.tag != Value::Tag::number) ||
        (op != BPF_NEG && src.tag != Value::Tag::number))
      return unknown(pc, "computes with a pointer or an unset register");
    // A 32-bit operation sees the low halves and zero-extends its result.
    std::uint64_t a = wide ? dst.bits : static_cast<std::uint32_t>(dst.bits);
    std::uint64_t b = wide ? src.bits : static_cast<std::uint32_t>(src.bits);
    std::uint64_t result = alu_result(op, a, b, wide);
    dst = number(wide ? result : static_cast<std::uint32_t>(result));
    return go(pc + 1);
  }

  Step byte_order(std::size_t pc, const bpf_insn& insn, Value& dst, bool wide) {
    if (dst.tag != Value::Tag::number) return unknown(pc, "swaps the bytes of a non-number");
    if (insn.imm != 16 && insn.imm != 32 && insn.imm != 64)
      return unknown(pc, "swaps bytes with an unknown width");
    // ALU64 BPF_END swaps unconditionally (cpu v4); ALU to the named order.
    const bool to_big = BPF_SRC(insn.code) == BPF_TO_BE;
    const bool swap = wide || (to_big == (std::endian::native == std::endian::little));
    dst = number(truncated(swap ? byte_swap(dst.bits, insn.imm) : dst.bits, insn.imm));
    return go(pc + 1);
  }

  Step jump(std::size_t pc, const bpf_insn& insn) {
    const std::uint8_t op = BPF_OP(insn.code);
    const bool wide = BPF_CLASS(insn.code) == BPF_JMP;
    if ((op == BPF_EXIT || op == BPF_CALL) && !wide) return unknown(pc, "is not a valid JMP32");
    if (op == BPF_EXIT) return exit(pc);
    if (op == BPF_CALL) return call(pc, insn);
    if (op == BPF_JA)
      return to(pc, insn.code == kJmp32Ja ? static_cast<std::int64_t>(insn.imm) : insn.off);
    if (!known_compare(op)) return unknown(pc, "is a jump graft does not know");
    const Value& dst = registers_[insn.dst_reg];
    Value src = *operand(insn);
    if (dst.tag != Value::Tag::number || src.tag != Value::Tag::number)
      return unknown(pc, "compares a pointer or an unset register");
    return compare(op, dst.bits, src.bits, wide) ? to(pc, insn.off) : go(pc + 1);
  }

  Step to(std::size_t pc, std::int64_t offset) const {
    const std::int64_t target = static_cast<std::int64_t>(pc) + 1 + offset;
    if (target < 0 || target >= static_cast<std::int64_t>(program_->size()))
      return unknown(pc, "jumps outside the program");
    return go(static_cast<std::size_t>(target));
  }

  Step exit(std::size_t pc) const {
    const Value& r0 = registers_[BPF_REG_0];
    if (r0.tag != Value::Tag::number) return unknown(pc, "returns a pointer or an unset register");
    // The kernel grants the access when bit 0 of the return value is set.
    return stop((r0.bits & 1) != 0 ? Verdict::Kind::allow : Verdict::Kind::deny);
  }

  Step load_context(std::size_t pc, const bpf_insn& insn) {
    if (BPF_MODE(insn.code) != BPF_MEM) return unknown(pc, "is a load graft does not know");
    const Value& base = registers_[insn.src_reg];
    if (base.tag != Value::Tag::context) return unknown(pc, "loads from memory other than the context");
    const std::size_t size = BPF_SIZE(insn.code) == BPF_B   ? 1
                             : BPF_SIZE(insn.code) == BPF_H ? 2
                             : BPF_SIZE(insn.code) == BPF_W ? 4
                                                            : 8;
    const std::int64_t offset = insn.off;
    if (size == 8 || offset < 0 || offset + static_cast<std::int64_t>(size) > 12)
      return unknown(pc, "loads outside struct bpf_cgroup_dev_ctx");
    std::uint32_t value = 0;
    std::memcpy(&value, context_.data() + offset, size);  // little-endian host: low bytes
    if (std::endian::native == std::endian::big) value >>= 8 * (4 - size);
    registers_[insn.dst_reg] = number(value);
    return go(pc + 1);
  }

  Step load_immediate(std::size_t pc, const bpf_insn& insn) {
    if (insn.code != (BPF_LD | BPF_IMM | BPF_DW)) return unknown(pc, "is a packet load");
    if (pc + 1 >= program_->size() || (*program_)[pc + 1].code != 0)
      return unknown(pc, "is a 64-bit load without its second half");
    const bpf_insn& high = (*program_)[pc + 1];
    Value& dst = registers_[insn.dst_reg];
    if (insn.src_reg == 0)
      dst = number(static_cast<std::uint32_t>(insn.imm) |
                   static_cast<std::uint64_t>(static_cast<std::uint32_t>(high.imm)) << 32);
    else if (insn.src_reg == BPF_PSEUDO_MAP_FD)  // as the kernel reports it: the map's id
      dst = {Value::Tag::map, static_cast<std::uint32_t>(insn.imm)};
    else
      return unknown(pc, "loads a map value or object address");
    return go(pc + 2);
  }

  Step call(std::size_t pc, const bpf_insn& insn) {
    if (insn.src_reg != 0 || insn.imm != BPF_FUNC_tail_call)
      return unknown(pc, insn.src_reg == 0 && insn.imm == 0
                             ? "calls a helper the kernel does not name (kernel.kptr_restrict?)"
                             : "calls a kernel helper or function other than bpf_tail_call");
    const Value& map = registers_[BPF_REG_2];
    const Value& key = registers_[BPF_REG_3];
    if (registers_[BPF_REG_1].tag != Value::Tag::context || map.tag != Value::Tag::map ||
        key.tag != Value::Tag::number)
      return unknown(pc, "makes a tail call graft cannot follow");
    if (tail_calls_ < kMaxTailCalls) {
      auto next = lookup_ ? lookup_(static_cast<std::uint32_t>(map.bits),
                                    static_cast<std::uint32_t>(key.bits))
                          : Result<const NamedProgram*>(make_error("no program array lookup"));
      if (!next) return unknown(pc, "tail-calls a program graft cannot read: " + next.error().message);
      if (*next != nullptr) {
        ++tail_calls_;
        start(**next);
        return go(0);
      }
    }
    // An empty slot, or too many tail calls: the kernel goes on after the
    // call, with r0-r5 clobbered as after any helper call.
    for (int r = BPF_REG_0; r <= BPF_REG_5; ++r) registers_[r] = {};
    return go(pc + 1);
  }

  const TailCallLookup& lookup_;
  std::array<unsigned char, sizeof(bpf_cgroup_dev_ctx)> context_{};
  const bpf::Program* program_ = nullptr;
  std::string name_;
  std::array<Value, kRegisters> registers_{};
  unsigned tail_calls_ = 0;
};

}  // namespace

Verdict run_device_program(const NamedProgram& program, const DeviceQuestion& question,
                           const TailCallLookup& lookup) {
  return Machine(question, lookup).run(program);
}

Verdict run_all(const std::vector<NamedProgram>& programs, const DeviceQuestion& question,
                const TailCallLookup& lookup) {
  std::optional<Verdict> unknown;
  for (const NamedProgram& program : programs) {
    Verdict verdict = run_device_program(program, question, lookup);
    if (verdict.kind == Verdict::Kind::deny) return verdict;
    if (verdict.kind == Verdict::Kind::unknown && !unknown) unknown = std::move(verdict);
  }
  return unknown ? *unknown : Verdict{Verdict::Kind::allow, {}};
}

}  // namespace graft::cgroup
