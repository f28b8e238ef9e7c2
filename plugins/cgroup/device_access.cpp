// SPDX-License-Identifier: Apache-2.0
// Reading a device cgroup's rules back (device_access.hpp).
#include "device_access.hpp"

#include <linux/bpf.h>

#include <fmt/format.h>

#include "bpf_program.hpp"

namespace graft::cgroup {
namespace {

// Program `id` as the kernel runs it; it must be a device program.
Result<NamedProgram> read_program(std::uint32_t id) {
  auto fd = bpf::program_by_id(id);
  if (!fd) return fd.error();
  auto info = bpf::program_info(fd->get());
  if (!info) return info.error().context(fmt::format("program {}", id));
  if (info->type != BPF_PROG_TYPE_CGROUP_DEVICE)
    return make_error("program {} is of type {}, not a device program", id, info->type);
  return NamedProgram{fmt::format("program {}", id), std::move(info->instructions)};
}

Result<std::vector<NamedProgram>> read_effective_programs(int cgroup_fd) {
  auto attached = bpf::query_programs(cgroup_fd, BPF_CGROUP_DEVICE, /*effective=*/true);
  if (!attached) return attached.error();
  std::vector<NamedProgram> programs;
  for (std::uint32_t id : attached->ids) {
    auto program = read_program(id);
    if (!program) return program.error();
    programs.push_back(std::move(*program));
  }
  return programs;
}

}  // namespace

Result<DeviceAccess> DeviceAccess::read(const ContainerCgroup& cgroup) {
  DeviceAccess access;
  access.mode_ = cgroup.mode;
  if (cgroup.mode == CgroupMode::v1) {
    auto list = read_device_list(cgroup.dir.get(), cgroup.path);
    if (!list) return list.error();
    access.list_ = std::move(*list);
    return access;
  }
  auto programs = read_effective_programs(cgroup.dir.get());
  if (!programs)
    return programs.error().context(
        fmt::format("cgroup {}: reading its device programs (graft needs CAP_SYS_ADMIN)",
                    cgroup.path));
  access.programs_ = std::move(*programs);
  return access;
}

Verdict DeviceAccess::allows(const DeviceQuestion& question) const {
  if (mode_ == CgroupMode::v1)
    return {list_allows(list_, question) ? Verdict::Kind::allow : Verdict::Kind::deny, {}};
  return run_all(programs_, question, [this](std::uint32_t map_id, std::uint32_t key) {
    return tail_call_target(map_id, key);
  });
}

Result<const NamedProgram*> DeviceAccess::tail_call_target(std::uint32_t map_id,
                                                           std::uint32_t key) const {
  if (auto found = slots_.find({map_id, key}); found != slots_.end()) return found->second.get();
  auto map = bpf::map_by_id(map_id);
  if (!map) return map.error();
  auto type = bpf::map_type(map->get());
  if (!type) return type.error();
  if (*type != BPF_MAP_TYPE_PROG_ARRAY)
    return make_error("map {} is of type {}, not a program array", map_id, *type);
  auto entry = bpf::prog_array_entry(map->get(), key);
  if (!entry) return entry.error();
  std::unique_ptr<NamedProgram> program;
  if (*entry) {
    auto read = read_program(**entry);
    if (!read) return read.error();
    program = std::make_unique<NamedProgram>(std::move(*read));
  }
  const NamedProgram* kept = program.get();
  slots_.emplace(Slot{map_id, key}, std::move(program));
  return kept;
}

}  // namespace graft::cgroup
