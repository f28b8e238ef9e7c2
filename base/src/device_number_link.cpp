// SPDX-License-Identifier: Apache-2.0
// /dev/char/MAJ:MIN links (device_number_link.hpp).
#include "graft/base/device_number_link.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

bool is_device(const struct stat& st, char type) {
  return type == 'b' ? S_ISBLK(st.st_mode) : S_ISCHR(st.st_mode);
}

// `dev_dir`/`name`, made when missing; never through a symlink.
Result<UniqueFd> open_link_dir(const std::string& dev_dir, const char* name) {
  UniqueFd dev(::open(dev_dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dev.valid()) return make_sys_error(errno, "{}", dev_dir);
  if (::mkdirat(dev.get(), name, 0755) != 0 && errno != EEXIST)
    return make_sys_error(errno, "creating {}/{}", dev_dir, name);
  UniqueFd dir(::openat(dev.get(), name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.valid()) return make_sys_error(errno, "{}/{}", dev_dir, name);
  return dir;
}

}  // namespace

Result<LinkOutcome> link_device_number(const std::string& dev_dir, char type, std::uint32_t major,
                                       std::uint32_t minor, const std::string& node,
                                       const std::string& link_value) {
  struct stat st {};
  if (::stat(node.c_str(), &st) != 0) return make_sys_error(errno, "{}", node);
  if (!is_device(st, type) || ::major(st.st_rdev) != major || ::minor(st.st_rdev) != minor)
    return make_error("{} is not the device {} {}:{}", node, type, major, minor);
  auto dir = open_link_dir(dev_dir, type == 'b' ? "block" : "char");
  if (!dir.ok()) return dir.error();
  const std::string name = std::to_string(major) + ":" + std::to_string(minor);
  const std::string shown = dev_dir + (type == 'b' ? "/block/" : "/char/") + name;
  // Whatever leads to a device node already serves: runc only stats it.
  if (::fstatat(dir->get(), name.c_str(), &st, 0) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
    return LinkOutcome::present;
  if (::fstatat(dir->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISLNK(st.st_mode)) return make_error("{}: exists and is not a link to a device node", shown);
    if (::unlinkat(dir->get(), name.c_str(), 0) != 0 && errno != ENOENT)
      return make_sys_error(errno, "replacing the dangling link {}", shown);
  }
  const std::string& value = link_value.empty() ? node : link_value;
  if (::symlinkat(value.c_str(), dir->get(), name.c_str()) != 0) {
    if (errno == EEXIST) return LinkOutcome::present;  // another runtime call made it meanwhile
    return make_sys_error(errno, "linking {} to {}", shown, node);
  }
  return LinkOutcome::made;
}

}  // namespace graft
