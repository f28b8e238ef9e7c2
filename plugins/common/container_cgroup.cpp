// SPDX-License-Identifier: Apache-2.0
// Finding the container's cgroup: /proc/<pid>/cgroup joined with the right
// mount, by mount id or from /proc/self/mountinfo (never linux.cgroupsPath,
// whose meaning depends on the runtime's cgroup driver).
#include "container_cgroup.hpp"

#include "container_process.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "graft/base/bounded_read.hpp"
#include "graft/base/pidfd.hpp"
#include "graft/base/proc_cgroup.hpp"

namespace graft::cgroup {

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '3' && field[i + 2] >= '0' && field[i + 2] <= '7' &&
        field[i + 3] >= '0' && field[i + 3] <= '7') {
      out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                               (field[i + 3] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

bool is_under(const std::string& path, const std::string& root) {
  if (root == "/") return true;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

}  // namespace

std::vector<MountEntry> parse_cgroup_mounts(std::string_view text) {
  std::vector<MountEntry> mounts;
  for (std::string_view line : split(text, '\n')) {
    // The kernel separates fields by one space and escapes spaces in paths,
    // so a line without this is no cgroup mount: most lines end here.
    if (line.find(" - cgroup") == std::string_view::npos) continue;
    // id parent major:minor root mount_point options [optional...] - fstype source super
    std::vector<std::string_view> fields;
    for (std::string_view field : split(line, ' '))
      if (!field.empty()) fields.push_back(field);
    size_t dash = 6;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (fields.size() < 7 || dash + 1 >= fields.size()) continue;
    std::string_view fstype = fields[dash + 1];
    if (fstype != "cgroup" && fstype != "cgroup2") continue;
    mounts.push_back(MountEntry{.root = unescape(fields[3]),
                                .mount_point = unescape(fields[4]),
                                .fstype = std::string(fstype),
                                .super_options = dash + 3 < fields.size() ? std::string(fields[dash + 3]) : ""});
  }
  return mounts;
}

bool has_item(std::string_view options, std::string_view word) {
  for (std::string_view item : split(options, ','))
    if (item == word) return true;
  return false;
}

Result<std::string> join_cgroup_path(const MountEntry& mount, const std::string& cgroup_path) {
  if (cgroup_path.empty() || cgroup_path[0] != '/')
    return make_error("cgroup path '{}' is not absolute", cgroup_path);
  if (cgroup_path.find("/..") != std::string::npos || mount.root.find("/..") != std::string::npos)
    return make_error("cgroup '{}' is outside the cgroup namespace (mount root '{}' at {})",
                      cgroup_path, mount.root, mount.mount_point);
  if (!is_under(cgroup_path, mount.root))
    return make_error("cgroup '{}' is not below the root '{}' of the mount at {}", cgroup_path,
                      mount.root, mount.mount_point);
  std::string relative = mount.root == "/" ? cgroup_path : cgroup_path.substr(mount.root.size());
  std::string joined = mount.mount_point;
  if (!relative.empty() && relative != "/") {
    if (joined.size() > 1 && joined.back() == '/') joined.pop_back();
    joined += joined == "/" ? relative.substr(1) : relative;
  }
  return joined;
}

Result<CgroupMode> detect_mode(const std::string& cgroup_root) {
  struct statfs fs {};
  if (::statfs(cgroup_root.c_str(), &fs) != 0)
    return make_sys_error(errno, "cgroup root {}", cgroup_root);
  return static_cast<unsigned long>(fs.f_type) == CGROUP2_SUPER_MAGIC ? CgroupMode::v2
                                                                      : CgroupMode::v1;
}

// The process's device cgroup line and the mount its path is relative to.
struct CgroupPlace {
  ProcCgroupLine line;
  MountEntry mount;
};
static Result<CgroupPlace> device_cgroup_place(CgroupMode mode, const std::vector<ProcCgroupLine>& lines,
                                               const std::vector<MountEntry>& mounts,
                                               const std::string& root, int pid) {
  const ProcCgroupLine* line = nullptr;
  const MountEntry* mount = nullptr;
  if (mode == CgroupMode::v2) {
    for (const auto& candidate : lines)
      if (candidate.controllers.empty() && line == nullptr) line = &candidate;
    // The last cgroup2 mount at cgroup_root is the one visible there.
    for (const auto& candidate : mounts)
      if (candidate.fstype == "cgroup2" && candidate.mount_point == root) mount = &candidate;
    if (line == nullptr)
      return make_error("pid {} has no cgroup v2 ('0::') line in /proc/{}/cgroup", pid, pid);
    if (mount == nullptr) return make_error("no cgroup2 mount at {} in mountinfo", root);
    return CgroupPlace{*line, *mount};
  }
  for (const auto& candidate : lines)
    if (line == nullptr && has_item(candidate.controllers, "devices")) line = &candidate;
  // Prefer a devices mount below cgroup_root; take any other as a fallback.
  for (const auto& candidate : mounts) {
    if (candidate.fstype != "cgroup" || !has_item(candidate.super_options, "devices")) continue;
    if (mount == nullptr ||
        (!is_under(mount->mount_point, root) && is_under(candidate.mount_point, root)))
      mount = &candidate;
  }
  if (line == nullptr)
    return make_error("pid {} is in no 'devices' cgroup (v1) in /proc/{}/cgroup", pid, pid);
  if (mount == nullptr) return make_error("no cgroup v1 mount with the devices controller");
  return CgroupPlace{*line, *mount};
}

// The device cgroup's place from the few mounts the kernel names by id (in
// v2 the one at the cgroup root, in v1 those below it), else from every
// mount in mountinfo: the kernel's answer is taken only where mountinfo's
// would be the same mount, and mountinfo words any error.
static Result<CgroupPlace> find_cgroup_place(CgroupMode mode, const std::vector<ProcCgroupLine>& lines,
                                             const std::string& root, int pid) {
  std::optional<std::vector<MountEntry>> by_id;
  if (mode == CgroupMode::v2) {
    if (auto mount = mount_at(root)) by_id = std::vector<MountEntry>{std::move(*mount)};
  } else {
    by_id = mounts_below(root);
  }
  if (by_id) {
    auto place = device_cgroup_place(mode, lines, *by_id, root, pid);
    if (place.ok()) return place;
  }
  // A host with thousands of mounts has a mountinfo of a few MiB.
  auto mountinfo_text = read_file("/proc/self/mountinfo", 64u << 20);
  if (!mountinfo_text.ok()) return mountinfo_text.error();
  return device_cgroup_place(mode, lines, parse_cgroup_mounts(*mountinfo_text), root, pid);
}

Result<ContainerCgroup> find_container_cgroup(int pid, int pidfd, const std::string& cgroup_root) {
  if (pid <= 0) return make_error("no container pid: cannot find the container's cgroup");
  // The pidfd the host holds (ABI 1.2), or one opened here for an older
  // host: later than the host's would have been, but before anything is read.
  UniqueFd owned;
  if (pidfd < 0) {
    auto opened = open_pidfd(pid);
    if (!opened.ok()) return opened.error();
    owned = std::move(*opened);
    pidfd = owned.get();
  }
  char resolved[PATH_MAX];
  if (::realpath(cgroup_root.c_str(), resolved) == nullptr)
    return make_sys_error(errno, "cgroup root {}", cgroup_root);
  const std::string root = resolved;
  auto mode = detect_mode(root);
  if (!mode.ok()) return mode.error();

  auto cgroup_text = plugin::read_container_proc(pidfd, pid, "cgroup", "its cgroup");
  if (!cgroup_text.ok()) return cgroup_text.error();
  auto place = find_cgroup_place(*mode, parse_proc_cgroup(*cgroup_text), root, pid);
  if (!place.ok()) return place.error();
  auto path = join_cgroup_path(place->mount, place->line.path);
  if (!path.ok()) return path.error().context(fmt::format("pid {}", pid));

  ContainerCgroup found{.mode = *mode, .path = *path, .dir = {}};
  found.dir = UniqueFd(::open(path->c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
  if (!found.dir.valid())
    return make_sys_error(errno, "cgroup of pid {}: open {}", pid, *path);
  struct statfs fs {};
  const unsigned long expected = *mode == CgroupMode::v2 ? CGROUP2_SUPER_MAGIC : CGROUP_SUPER_MAGIC;
  if (::fstatfs(found.dir.get(), &fs) != 0 || static_cast<unsigned long>(fs.f_type) != expected)
    return make_error("cgroup of pid {}: {} is not a cgroup{} directory", pid, *path,
                      *mode == CgroupMode::v2 ? "2" : " (v1)");
  // Only now is the directory held: had the process exited meanwhile, its
  // cgroup could have been removed and the path reused by another.
  if (auto running = confirm_running(pidfd, pid, "its cgroup"); !running.ok())
    return running.error();
  return found;
}

}  // namespace graft::cgroup
