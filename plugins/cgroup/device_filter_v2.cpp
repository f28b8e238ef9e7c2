// SPDX-License-Identifier: Apache-2.0
// cgroup v2 device rules by wrapping the runtime's BPF device programs.
//
// On the unified hierarchy the kernel asks the BPF_PROG_TYPE_CGROUP_DEVICE
// programs attached to the container's cgroup (and its ancestors) whether a
// device may be opened or created. runc and crun attach their own program
// (runc with BPF_F_ALLOW_MULTI). With multi-attach EVERY program must allow
// an access, so attaching a second program can only take away: the
// runtime's program has to be replaced, and every rule it set kept.
//
// Its instructions are not read back: with net.core.bpf_jit_harden the
// kernel returns blinded code that no longer loads (libnvidia-container's
// "last insn is not an exit or jmp"). Instead, for each program X attached
// directly to the cgroup (BPF_PROG_QUERY, BPF_CGROUP_DEVICE):
//
//  1. X's fd from its id (BPF_PROG_GET_FD_BY_ID) goes into slot 0 of a new
//     one-entry BPF_MAP_TYPE_PROG_ARRAY.
//  2. A wrapper W is loaded: it reads bpf_cgroup_dev_ctx (access_type =
//     access << 16 | type, major, minor) and returns 1 when one of our rules
//     matches (same type and numbers, requested access bits a subset of the
//     rule's); otherwise it tail-calls X through the map, so X decides
//     exactly as before; if the tail call fails it returns 0 (deny: fail
//     closed). Recent kernels (seen on 6.18) let a tail call pass only
//     between programs of equal expected_attach_type, which BPF_OBJ_GET_INFO
//     does not report: W is loaded with 0 (what runc, crun and systemd use)
//     and, if the kernel refuses the pairing, with BPF_CGROUP_DEVICE.
//  3. The map is pinned in a bpf filesystem (config "bpffs", default
//     /sys/fs/bpf) as graft/devcg-<cgroup id>-<X's id>. This is required,
//     not bookkeeping: the kernel empties a prog array when its last user
//     reference (fd or pin) goes, and W's own reference does not count, so
//     without the pin every tail call would fail once graft exits and the
//     container would lose the runtime's rules (/dev/null included).
//  4. W replaces X atomically: with BPF_F_ALLOW_MULTI by BPF_F_REPLACE and
//     replace_bpf_fd = X; in the single-program modes (flags 0 or
//     BPF_F_ALLOW_OVERRIDE) attaching with the same flags replaces in
//     place. Never detach-then-attach, so there is no moment when every
//     device is allowed. A failed attach unpins again.
//
// With no program attached the cgroup has no device filter: every device is
// allowed already and nothing is installed. Pins whose cgroup is gone
// (open_by_handle_at on the cgroup id says ESTALE) are removed on the next
// install. Programs attached to ancestor cgroups are not touched: a rule an
// ancestor denies stays denied. RLIMIT_MEMLOCK is left alone: since 5.11
// BPF memory is charged to the memory cgroup.
#include "device_filter_v2.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "graft/base/unique_fd.hpp"

namespace graft::cgroup {

namespace {

constexpr const char* pin_dir_name = "graft";
constexpr const char* pin_prefix = "devcg-";
// File handle type of kernfs (cgroup2) objects: the 64-bit cgroup id.
constexpr int kernfs_handle_type = 0xfe;

// Rules with the same device merged (their access bits joined), in a
// stable order.
std::vector<DeviceRule> merged(const std::vector<DeviceRule>& rules) {
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, DeviceRule> by_device;
  for (const auto& rule : rules) {
    auto [it, inserted] = by_device.try_emplace({rule.type_bit, rule.major, rule.minor}, rule);
    if (!inserted) it->second.access_bits |= rule.access_bits;
  }
  std::vector<DeviceRule> out;
  for (auto& [key, rule] : by_device) out.push_back(rule);
  return out;
}

// Whether the cgroup with this id (its inode number) still exists, asked
// through an fd on the same cgroup2 filesystem (open_by_handle_at refuses an
// O_PATH one). Unknown (other errors) counts as alive.
bool cgroup_alive(int mount_fd, std::uint64_t id) {
  alignas(file_handle) unsigned char buffer[sizeof(file_handle) + sizeof id] = {};
  auto* handle = reinterpret_cast<file_handle*>(buffer);
  handle->handle_bytes = sizeof id;
  handle->handle_type = kernfs_handle_type;
  std::memcpy(buffer + sizeof(file_handle), &id, sizeof id);
  UniqueFd fd(::open_by_handle_at(mount_fd, handle, O_PATH | O_CLOEXEC));
  return fd.valid() || errno != ESTALE;
}

// Removes pins left by containers whose cgroup no longer exists.
void sweep_stale_pins(int pin_dir_fd, int cgroup_fd,
                      const std::function<void(const std::string&)>& debug) {
  int list_fd = ::openat(pin_dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (list_fd < 0) return;
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(list_fd), &::closedir);
  if (!dir) {
    ::close(list_fd);
    return;
  }
  UniqueFd mount_fd(::openat(cgroup_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!mount_fd.valid()) return;
  std::vector<std::string> stale;
  while (dirent* entry = ::readdir(dir.get())) {
    std::uint64_t id = 0;
    std::uint32_t prog = 0;
    if (std::sscanf(entry->d_name, "devcg-%" SCNu64 "-%" SCNu32, &id, &prog) == 2 &&
        !cgroup_alive(mount_fd.get(), id))
      stale.emplace_back(entry->d_name);
  }
  for (const auto& name : stale)
    if (::unlinkat(pin_dir_fd, name.c_str(), 0) == 0) debug("removed stale pin " + name);
}

Result<UniqueFd> open_pin_dir(const FilterTarget& target) {
  if (target.bpffs_fd < 0)
    return make_error("cannot keep the runtime's device program reachable: {}",
                      target.bpffs_error.empty() ? "no bpf filesystem" : target.bpffs_error);
  if (::mkdirat(target.bpffs_fd, pin_dir_name, 0700) != 0 && errno != EEXIST)
    return make_sys_error(errno, "mkdir {}/{}", target.bpffs_path, pin_dir_name);
  UniqueFd dir(
      ::openat(target.bpffs_fd, pin_dir_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.valid())
    return make_sys_error(errno, "open {}/{}", target.bpffs_path, pin_dir_name);
  return dir;
}

Result<UniqueFd> load_wrapper(const bpf::Program& program) {
  auto loaded = bpf::load_program(BPF_PROG_TYPE_CGROUP_DEVICE, program, "Apache-2.0", 0);
  if (loaded.ok()) return loaded;
  // A kernel that pairs tail calls by expected_attach_type, and a runtime
  // that loaded its program with BPF_CGROUP_DEVICE.
  auto again =
      bpf::load_program(BPF_PROG_TYPE_CGROUP_DEVICE, program, "Apache-2.0", BPF_CGROUP_DEVICE);
  if (again.ok()) return again;
  return loaded.error();
}

// Wraps the attached program `id`: steps 1-4 of the comment above.
Status wrap_program(const FilterTarget& target, int pin_dir_fd, std::uint64_t cgroup_id,
                    std::uint32_t id, std::uint32_t flags, const std::vector<DeviceRule>& rules) {
  auto runtime_program = bpf::program_by_id(id);
  if (!runtime_program.ok()) return runtime_program.error();
  auto map = bpf::create_prog_array(1);
  if (!map.ok()) return map.error();
  if (auto set = bpf::set_prog_array_entry(map->get(), 0, runtime_program->get()); !set.ok())
    return set;
  auto wrapper = load_wrapper(wrapper_program(rules, map->get()));
  if (!wrapper.ok()) return wrapper.error().context("loading the device filter");

  const std::string pin = fmt::format("{}{}-{}", pin_prefix, cgroup_id, id);
  if (auto pinned = bpf::pin_object(pin_dir_fd, pin, map->get()); !pinned.ok())
    return pinned.error().context(fmt::format("keeping program {} reachable in {}/{}", id,
                                              target.bpffs_path, pin_dir_name));
  const bool multi = (flags & BPF_F_ALLOW_MULTI) != 0;
  auto attached = bpf::attach_program(target.cgroup_fd, wrapper->get(), BPF_CGROUP_DEVICE,
                                      multi ? BPF_F_ALLOW_MULTI : flags,
                                      multi ? runtime_program->get() : -1);
  if (!attached.ok()) {
    ::unlinkat(pin_dir_fd, pin.c_str(), 0);
    return attached.error().context(fmt::format("replacing program {}", id));
  }
  return ok_status();
}

}  // namespace

bpf::Program wrapper_program(const std::vector<DeviceRule>& rules, int map_fd) {
  using namespace bpf;
  // r6 = ctx; r2 = access; r3 = type; r4 = major; r5 = minor.
  Program p{mov64_reg(BPF_REG_6, BPF_REG_1),
            load_u32(BPF_REG_2, BPF_REG_6, offsetof(bpf_cgroup_dev_ctx, access_type)),
            mov32_reg(BPF_REG_3, BPF_REG_2),
            alu32_imm(BPF_AND, BPF_REG_3, 0xffff),
            alu32_imm(BPF_RSH, BPF_REG_2, 16),
            load_u32(BPF_REG_4, BPF_REG_6, offsetof(bpf_cgroup_dev_ctx, major)),
            load_u32(BPF_REG_5, BPF_REG_6, offsetof(bpf_cgroup_dev_ctx, minor))};
  // One block of 8 per rule; every "no" jumps to the next block.
  for (const auto& rule : merged(rules)) {
    const std::int32_t denied_bits =
        static_cast<std::int32_t>(~rule.access_bits &
                                  (BPF_DEVCG_ACC_MKNOD | BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE));
    p.push_back(jne_imm(BPF_REG_3, static_cast<std::int32_t>(rule.type_bit), 7));
    p.push_back(jne_imm(BPF_REG_4, static_cast<std::int32_t>(rule.major), 6));
    p.push_back(jne_imm(BPF_REG_5, static_cast<std::int32_t>(rule.minor), 5));
    p.push_back(mov32_reg(BPF_REG_0, BPF_REG_2));
    p.push_back(alu32_imm(BPF_AND, BPF_REG_0, denied_bits));
    p.push_back(jne_imm(BPF_REG_0, 0, 2));
    p.push_back(mov64_imm(BPF_REG_0, 1));
    p.push_back(exit());
  }
  // Not ours: the wrapped program decides; if it cannot be called, deny.
  p.push_back(mov64_reg(BPF_REG_1, BPF_REG_6));
  load_map_fd(p, BPF_REG_2, map_fd);
  p.push_back(mov64_imm(BPF_REG_3, 0));
  p.push_back(call(BPF_FUNC_tail_call));
  p.push_back(mov64_imm(BPF_REG_0, 0));
  p.push_back(exit());
  return p;
}

Result<size_t> install_device_rules(const FilterTarget& target, const std::vector<DeviceRule>& rules,
                                    const std::function<void(const std::string&)>& debug) {
  if (rules.empty()) return size_t{0};
  auto attached = bpf::query_programs(target.cgroup_fd, BPF_CGROUP_DEVICE);
  if (!attached.ok()) return attached.error().context("cgroup " + target.cgroup_path);
  if (attached->ids.empty()) {
    debug(fmt::format("cgroup {} has no device program attached: every device is allowed "
                      "already, nothing to install",
                      target.cgroup_path));
    return size_t{0};
  }
  auto pin_dir = open_pin_dir(target);
  if (!pin_dir.ok()) return pin_dir.error().context("cgroup " + target.cgroup_path);
  struct stat cgroup_stat {};
  if (::fstat(target.cgroup_fd, &cgroup_stat) != 0)
    return make_sys_error(errno, "cgroup {}: fstat", target.cgroup_path);
  sweep_stale_pins(pin_dir->get(), target.cgroup_fd, debug);

  for (std::uint32_t id : attached->ids) {
    if (auto wrapped = wrap_program(target, pin_dir->get(), cgroup_stat.st_ino, id,
                                    attached->flags, rules);
        !wrapped.ok())
      return wrapped.error().context("cgroup " + target.cgroup_path);
    debug(fmt::format("cgroup {}: device program {} wrapped with {} rule(s)", target.cgroup_path,
                      id, rules.size()));
  }
  return attached->ids.size();
}

}  // namespace graft::cgroup
