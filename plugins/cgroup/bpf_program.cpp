// SPDX-License-Identifier: Apache-2.0
// bpf(2) by hand: the handful of commands the v2 device filter needs.
#include "bpf_program.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>

namespace graft::cgroup::bpf {

namespace {

bpf_insn make(std::uint8_t code, int dst, int src, std::int16_t offset, std::int32_t imm) {
  bpf_insn insn{};
  insn.code = code;
  insn.dst_reg = static_cast<std::uint8_t>(dst) & 0xf;
  insn.src_reg = static_cast<std::uint8_t>(src) & 0xf;
  insn.off = offset;
  insn.imm = imm;
  return insn;
}

long sys_bpf(int command, bpf_attr& attr) {
  long result;
  do {
    result = ::syscall(__NR_bpf, command, &attr, sizeof attr);
  } while (result < 0 && errno == EAGAIN && command == BPF_PROG_LOAD);
  return result;
}

std::uint64_t pointer(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// The verifier's complaint: the last non-empty line before its statistics
// ("processed N insns ..."), which is where it says what it refused.
std::string verifier_message(const char* log) {
  std::string_view text(log);
  std::string_view found;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (line.starts_with("processed ") || line.starts_with("verification time")) break;
    if (!line.empty()) found = line;
    start = end + 1;
  }
  return std::string(found);
}

}  // namespace

bpf_insn mov64_reg(int dst, int src) { return make(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0); }
bpf_insn mov64_imm(int dst, std::int32_t imm) {
  return make(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}
bpf_insn mov32_reg(int dst, int src) { return make(BPF_ALU | BPF_MOV | BPF_X, dst, src, 0, 0); }
bpf_insn alu32_imm(int op, int dst, std::int32_t imm) {
  return make(static_cast<std::uint8_t>(BPF_ALU | op | BPF_K), dst, 0, 0, imm);
}
bpf_insn load_u32(int dst, int src, std::int16_t offset) {
  return make(BPF_LDX | BPF_W | BPF_MEM, dst, src, offset, 0);
}
bpf_insn jne_imm(int dst, std::int32_t imm, std::int16_t offset) {
  return make(BPF_JMP | BPF_JNE | BPF_K, dst, 0, offset, imm);
}
bpf_insn call(std::int32_t helper) { return make(BPF_JMP | BPF_CALL, 0, 0, 0, helper); }
bpf_insn exit() { return make(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }

void load_map_fd(Program& program, int dst, int map_fd) {
  program.push_back(make(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, map_fd));
  program.push_back(make(0, 0, 0, 0, 0));
}

Result<UniqueFd> load_program(bpf_prog_type type, const Program& program, const char* license,
                              std::uint32_t expected_attach_type) {
  static constexpr size_t log_size = 64 * 1024;
  auto log = std::make_unique<char[]>(log_size);
  bpf_attr attr{};
  attr.prog_type = type;
  attr.insns = pointer(program.data());
  attr.insn_cnt = static_cast<std::uint32_t>(program.size());
  attr.license = pointer(license);
  attr.expected_attach_type = expected_attach_type;
  attr.log_buf = pointer(log.get());
  attr.log_size = log_size;
  attr.log_level = 1;
  long fd = sys_bpf(BPF_PROG_LOAD, attr);
  if (fd < 0) {
    int error = errno;
    std::string message = verifier_message(log.get());
    Error failed = make_error("BPF_PROG_LOAD: {}{}", std::strerror(error),
                              message.empty() ? "" : " (verifier: " + message + ")");
    failed.code = error;
    return failed;
  }
  return UniqueFd(static_cast<int>(fd));
}

Result<UniqueFd> create_prog_array(std::uint32_t entries) {
  bpf_attr attr{};
  attr.map_type = BPF_MAP_TYPE_PROG_ARRAY;
  attr.key_size = sizeof(std::uint32_t);
  attr.value_size = sizeof(std::uint32_t);
  attr.max_entries = entries;
  std::memcpy(attr.map_name, "graft_devcg", sizeof "graft_devcg");
  long fd = sys_bpf(BPF_MAP_CREATE, attr);
  if (fd < 0) {
    // Kernels before 4.15 refuse map names; try once without.
    std::memset(attr.map_name, 0, sizeof attr.map_name);
    fd = sys_bpf(BPF_MAP_CREATE, attr);
  }
  if (fd < 0) return make_sys_error(errno, "BPF_MAP_CREATE (prog array)");
  return UniqueFd(static_cast<int>(fd));
}

Status set_prog_array_entry(int map_fd, std::uint32_t key, int prog_fd) {
  std::uint32_t value = static_cast<std::uint32_t>(prog_fd);
  bpf_attr attr{};
  attr.map_fd = static_cast<std::uint32_t>(map_fd);
  attr.key = pointer(&key);
  attr.value = pointer(&value);
  attr.flags = BPF_ANY;
  if (sys_bpf(BPF_MAP_UPDATE_ELEM, attr) != 0)
    return make_sys_error(errno, "BPF_MAP_UPDATE_ELEM (prog array)");
  return ok_status();
}

Result<Attached> query_programs(int target_fd, bpf_attach_type type, bool effective) {
  std::vector<std::uint32_t> ids(64);
  for (int attempt = 0; attempt < 8; ++attempt) {
    bpf_attr attr{};
    attr.query.target_fd = static_cast<std::uint32_t>(target_fd);
    attr.query.attach_type = type;
    attr.query.query_flags = effective ? BPF_F_QUERY_EFFECTIVE : 0;
    attr.query.prog_ids = pointer(ids.data());
    attr.query.prog_cnt = static_cast<std::uint32_t>(ids.size());
    if (sys_bpf(BPF_PROG_QUERY, attr) == 0) {
      ids.resize(attr.query.prog_cnt);
      return Attached{.ids = std::move(ids), .flags = attr.query.attach_flags};
    }
    if (errno != ENOSPC) return make_sys_error(errno, "BPF_PROG_QUERY");
    ids.resize(attr.query.prog_cnt + 16);  // programs were attached meanwhile
  }
  return make_error("BPF_PROG_QUERY: the attached programs keep changing");
}

Result<UniqueFd> program_by_id(std::uint32_t id) {
  bpf_attr attr{};
  attr.prog_id = id;
  long fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, attr);
  if (fd < 0) return make_sys_error(errno, "BPF_PROG_GET_FD_BY_ID {}", id);
  return UniqueFd(static_cast<int>(fd));
}

// BPF_OBJ_GET_INFO_BY_FD into `info` (a bpf_prog_info or bpf_map_info).
template <typename Info>
Status object_info(int fd, Info& info, const char* what) {
  bpf_attr attr{};
  attr.info.bpf_fd = static_cast<std::uint32_t>(fd);
  attr.info.info_len = sizeof info;
  attr.info.info = pointer(&info);
  if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, attr) != 0)
    return make_sys_error(errno, "BPF_OBJ_GET_INFO_BY_FD{}", what);
  return ok_status();
}

Result<ProgramInfo> program_info(int prog_fd) {
  // Twice: the first call says how long the instructions are.
  bpf_prog_info info{};
  if (auto read = object_info(prog_fd, info, ""); !read) return read.error();
  ProgramInfo out{.type = info.type, .instructions = {}};
  const std::uint32_t length = info.xlated_prog_len;
  if (length == 0 || length % sizeof(bpf_insn) != 0)
    return make_error("BPF_OBJ_GET_INFO_BY_FD: the kernel gives no instructions");
  out.instructions.resize(length / sizeof(bpf_insn));
  info = bpf_prog_info{};
  info.xlated_prog_len = length;
  info.xlated_prog_insns = pointer(out.instructions.data());
  if (auto read = object_info(prog_fd, info, ""); !read) return read.error();
  if (info.xlated_prog_len != length)
    return make_error("BPF_OBJ_GET_INFO_BY_FD: the program changed while it was read");
  return out;
}

Result<UniqueFd> map_by_id(std::uint32_t id) {
  bpf_attr attr{};
  attr.map_id = id;
  long fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, attr);
  if (fd < 0) return make_sys_error(errno, "BPF_MAP_GET_FD_BY_ID {}", id);
  return UniqueFd(static_cast<int>(fd));
}

Result<std::uint32_t> map_type(int map_fd) {
  bpf_map_info info{};
  if (auto read = object_info(map_fd, info, " (map)"); !read) return read.error();
  return info.type;
}

Result<std::optional<std::uint32_t>> prog_array_entry(int map_fd, std::uint32_t key) {
  std::uint32_t value = 0;  // a program array answers the program's id
  bpf_attr attr{};
  attr.map_fd = static_cast<std::uint32_t>(map_fd);
  attr.key = pointer(&key);
  attr.value = pointer(&value);
  if (sys_bpf(BPF_MAP_LOOKUP_ELEM, attr) == 0) return std::optional<std::uint32_t>(value);
  if (errno == ENOENT) return std::optional<std::uint32_t>();
  return make_sys_error(errno, "BPF_MAP_LOOKUP_ELEM (prog array)");
}

Status attach_program(int target_fd, int prog_fd, bpf_attach_type type, std::uint32_t flags,
                      int replace_fd) {
  bpf_attr attr{};
  attr.target_fd = static_cast<std::uint32_t>(target_fd);
  attr.attach_bpf_fd = static_cast<std::uint32_t>(prog_fd);
  attr.attach_type = type;
  attr.attach_flags = flags;
  if (replace_fd >= 0) {
    attr.attach_flags |= BPF_F_REPLACE;
    attr.replace_bpf_fd = static_cast<std::uint32_t>(replace_fd);
  }
  if (sys_bpf(BPF_PROG_ATTACH, attr) != 0)
    return make_sys_error(errno, "BPF_PROG_ATTACH");
  return ok_status();
}

Status pin_object(int dir_fd, const std::string& name, int object_fd) {
  // BPF_OBJ_PIN relative to a directory fd (Linux 6.5: BPF_F_PATH_FD and
  // path_fd after file_flags; older uapi headers do not declare them).
  constexpr std::uint32_t path_fd_flag = 1u << 14;
  struct PinAttr {
    std::uint64_t pathname;
    std::uint32_t bpf_fd;
    std::uint32_t file_flags;
    std::int32_t path_fd;
  };
  static_assert(sizeof(PinAttr) <= sizeof(bpf_attr));
  bpf_attr attr{};
  PinAttr pin{.pathname = pointer(name.c_str()),
              .bpf_fd = static_cast<std::uint32_t>(object_fd),
              .file_flags = path_fd_flag,
              .path_fd = dir_fd};
  std::memcpy(&attr, &pin, sizeof pin);
  if (sys_bpf(BPF_OBJ_PIN, attr) == 0) return ok_status();
  if (errno != EINVAL) return make_sys_error(errno, "BPF_OBJ_PIN {}", name);
  // Before 6.5: the same directory through this process's own fd link.
  std::string path = "/proc/self/fd/" + std::to_string(dir_fd) + "/" + name;
  attr = bpf_attr{};
  attr.pathname = pointer(path.c_str());
  attr.bpf_fd = static_cast<std::uint32_t>(object_fd);
  if (sys_bpf(BPF_OBJ_PIN, attr) != 0)
    return make_sys_error(errno, "BPF_OBJ_PIN {}", name);
  return ok_status();
}

}  // namespace graft::cgroup::bpf
