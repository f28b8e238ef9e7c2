// SPDX-License-Identifier: Apache-2.0
// Checking planned binds and nodes in a running container (bind_check.hpp).
#include "bind_check.hpp"

#include <fcntl.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "graft/base/unique_fd.hpp"
#include "mount_step.hpp"
#include "root_mount.hpp"
#include "root_path.hpp"
#include "source_check.hpp"

namespace graft::plugin {
namespace {

// What sits at `target` now, opened without following it; nullopt after a
// finding (missing, or unreadable) was reported.
std::optional<UniqueFd> open_target(const Host& host, const graft_apply_context& context,
                                    const std::string& target, const std::string& expected,
                                    const Findings& findings) {
  int fd = host.resolve_in_root(context.rootfs_fd, target, O_PATH | O_NOFOLLOW);
  if (fd >= 0) return UniqueFd(fd);
  if (fd == -ENOENT || fd == -ENOTDIR)
    findings.drift(expected, "missing");
  else
    findings.unknown(expected, fmt::format("cannot look up {}: {}", target, std::strerror(-fd)));
  return std::nullopt;
}

// fstat of what sits at `target` failed, worded as the check words it.
Error stat_failed(const std::string& target) {
  Error error = make_sys_error(errno, "{}: fstat", target);
  error.step = mount_step::stat_target;
  return error;
}

// "a regular file", "c 195:2", ...: what `st` is, in a finding's words.
std::string describe_found(const struct stat& st) {
  if (S_ISCHR(st.st_mode)) return device_text('c', st.st_rdev);
  if (S_ISBLK(st.st_mode)) return device_text('b', st.st_rdev);
  return describe(file_type(st.st_mode));
}

bool same_device_node(const struct stat& st, char device_type, dev_t rdev) {
  const bool type_ok = device_type == 'c' ? S_ISCHR(st.st_mode) : S_ISBLK(st.st_mode);
  return type_ok && st.st_rdev == rdev;
}

// Whether `fd` (the object at `target`) is on another mount than the
// directory holding it; nullopt after an unknown was reported.
std::optional<bool> is_mount_point(const Host& host, const graft_apply_context& context, int fd,
                                   const std::string& target, const std::string& expected,
                                   const Findings& findings) {
  const std::string parent = target.substr(0, std::max<std::size_t>(1, target.rfind('/')));
  int parent_fd = host.resolve_in_root(context.rootfs_fd, parent, O_PATH | O_DIRECTORY);
  if (parent_fd < 0) {
    findings.unknown(expected, fmt::format("cannot look up {}: {}", parent, std::strerror(-parent_fd)));
    return std::nullopt;
  }
  UniqueFd parent_dir(parent_fd);
  auto own = mount_id(fd, target);
  auto above = own ? mount_id(parent_dir.get(), parent) : Result<std::uint64_t>(own.error());
  if (!above) {
    findings.unknown(expected, above.error().message);
    return std::nullopt;
  }
  return *own != *above;
}

}  // namespace

std::string device_text(char device_type, dev_t rdev) {
  return fmt::format("{} {}:{}", device_type, major(rdev), minor(rdev));
}

Status check_bind(const Host& host, const graft_apply_context& context, const std::string& target,
                  const BoundSource& source, const Findings& findings) {
  if (context.rootfs_fd < 0) return make_error("{}: no container root to look in", target);
  const std::string expected =
      source.device_type != 0
          ? fmt::format("a mount of {} ({})", source.path, device_text(source.device_type, source.st.st_rdev))
          : "a mount of " + source.path;
  auto fd = open_target(host, context, target, expected, findings);
  if (!fd) return ok_status();
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0)
    return stat_failed(target);
  const bool node = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
  if (source.device_type != 0 && node) {
    // A node is its type and number: one the runtime made itself (graft-
    // runtime's declarative mode, a CDI spec: runc's mknod) gives the same
    // device as the host's bound; what it may do is the cgroup's to say.
    if (!same_device_node(st, source.device_type, source.st.st_rdev))
      findings.drift(expected, describe_found(st));  // another device: its number says it all
    return ok_status();
  }
  if (st.st_dev != source.st.st_dev || st.st_ino != source.st.st_ino) {
    findings.drift(expected, fmt::format("{}, not the host's {}", describe_found(st), source.path));
    return ok_status();
  }
  auto mounted = is_mount_point(host, context, fd->get(), target, expected, findings);
  if (mounted && !*mounted) findings.drift(expected, "the host's file, but not mounted there");
  return ok_status();
}

Status check_node(const Host& host, const graft_apply_context& context, const std::string& target,
                  char device_type, dev_t rdev, const Findings& findings) {
  if (context.rootfs_fd < 0) return make_error("{}: no container root to look in", target);
  const std::string expected = "node " + device_text(device_type, rdev);
  auto fd = open_target(host, context, target, expected, findings);
  if (!fd) return ok_status();
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0)
    return stat_failed(target);
  if (!same_device_node(st, device_type, rdev)) findings.drift(expected, describe_found(st));
  return ok_status();
}

}  // namespace graft::plugin
