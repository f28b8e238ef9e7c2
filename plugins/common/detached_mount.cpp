// SPDX-License-Identifier: Apache-2.0
// The new mount API through raw syscalls: glibc 2.36's <sys/mount.h> wrappers
// cannot be included next to <linux/mount.h>, which has the constants, and
// older glibc has no wrappers at all.
#include "detached_mount.hpp"

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "plugin_glue.hpp"
#include "mount_step.hpp"
#include "sys_error.hpp"

namespace graft::plugin {

namespace {

struct OptionFlag {
  const char* word;
  std::uint64_t flag;
};
constexpr OptionFlag kOptionFlags[] = {
    {"nosuid", MOUNT_ATTR_NOSUID}, {"nodev", MOUNT_ATTR_NODEV}, {"noexec", MOUNT_ATTR_NOEXEC}};

bool known_word(const char* word, std::initializer_list<const char*> ignored) {
  if (std::strcmp(word, "ro") == 0 || std::strcmp(word, "rw") == 0) return true;
  for (const auto& option : kOptionFlags)
    if (std::strcmp(word, option.word) == 0) return true;
  for (const char* skip : ignored)
    if (std::strcmp(word, skip) == 0) return true;
  return false;
}

}  // namespace

Result<MountAttributes> mount_attributes(const graft_action& action,
                                         std::initializer_list<const char*> ignored) {
  for (const char* const* option = action.options; option && *option; ++option)
    if (!known_word(*option, ignored))
      return make_error("{}: unsupported mount option '{}'", action.target, *option);
  if (has_option(action, "ro") && has_option(action, "rw"))
    return make_error("{}: options say both ro and rw", action.target);
  MountAttributes attributes;
  if (has_option(action, "rw"))
    attributes.clear |= MOUNT_ATTR_RDONLY;
  else
    attributes.set |= MOUNT_ATTR_RDONLY;
  for (const auto& option : kOptionFlags)
    (has_option(action, option.word) ? attributes.set : attributes.clear) |= option.flag;
  return attributes;
}

Result<UniqueFd> clone_mount(int source_fd, const std::string& shown) {
  long fd = ::syscall(SYS_open_tree, source_fd, "",
                      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
  if (fd < 0) return sys_error(mount_step::clone, shown, errno);
  return UniqueFd(static_cast<int>(fd));
}

Status set_mount_attributes(int mount_fd, const MountAttributes& attributes,
                            const std::string& shown) {
  mount_attr attr{};
  attr.attr_set = attributes.set;
  attr.attr_clr = attributes.clear;
  // A clone starts in its source's peer group: on a host where the source
  // mount is shared (/, /dev, /run and /proc on systemd), whatever a
  // container with CAP_SYS_ADMIN mounted on top of it would show up on the
  // host's own copy. Private, it neither sends nor receives mount events.
  attr.propagation = MS_PRIVATE;
  if (::syscall(SYS_mount_setattr, mount_fd, "", AT_EMPTY_PATH, &attr, sizeof attr) != 0)
    return sys_error(mount_step::set_attributes, shown, errno);
  return ok_status();
}

Status attach_mount(int mount_fd, int target_fd, const std::string& shown) {
  if (::syscall(SYS_move_mount, mount_fd, "", target_fd, "",
                MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
    return sys_error(mount_step::attach, shown, errno);
  return ok_status();
}

Result<UniqueFd> make_tmpfs(const std::vector<std::pair<std::string, std::string>>& parameters,
                            std::uint64_t attributes, const std::string& shown) {
  UniqueFd context(static_cast<int>(::syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC)));
  if (!context.valid()) return sys_error(mount_step::open_tmpfs, shown, errno);
  for (const auto& [key, value] : parameters)
    if (::syscall(SYS_fsconfig, context.get(), FSCONFIG_SET_STRING, key.c_str(), value.c_str(),
                  0) != 0)
      return sys_error(mount_step::configure_tmpfs, "fsconfig " + key + "=" + value, shown, errno);
  if (::syscall(SYS_fsconfig, context.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0)
    return sys_error(mount_step::create_tmpfs, shown, errno);
  long fd = ::syscall(SYS_fsmount, context.get(), FSMOUNT_CLOEXEC, attributes);
  if (fd < 0) return sys_error(mount_step::mount_tmpfs, shown, errno);
  return UniqueFd(static_cast<int>(fd));
}

}  // namespace graft::plugin
