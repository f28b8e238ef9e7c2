// Mount checks for root_mount.hpp.
#include "root_mount.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

#include "fd.hpp"
#include "sys_error.hpp"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

namespace graft::plugin {
namespace {

// "dev" for "/dev/nvidia0", "proc" for "/proc/driver/nvidia"; "" otherwise.
std::string special_mount_of(const std::string& target) {
  for (const char* name : {"dev", "proc"}) {
    std::string prefix = std::string("/") + name;
    if (target == prefix || target.starts_with(prefix + "/")) return name;
  }
  return "";
}

}  // namespace

Result<std::uint64_t> mount_id(int fd, const std::string& shown) {
  struct statx stx {};
  if (::statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) != 0)
    return sys_error("statx", shown, errno);
  if ((stx.stx_mask & STATX_MNT_ID) == 0)
    return make_error("{}: this kernel does not report mount ids (statx STATX_MNT_ID, Linux "
                      "5.8), so graft cannot check which mount it is on; refusing",
                      shown);
  return static_cast<std::uint64_t>(stx.stx_mnt_id);
}

Status check_target_mount(int root_fd, int dir_fd, const std::string& target,
                          const std::string& dir) {
  std::string special = special_mount_of(target);
  std::string expected_name = special.empty() ? "the container root" : "/" + special;
  std::uint64_t expected = 0;
  if (special.empty()) {
    auto root = mount_id(root_fd, "container root");
    if (!root) return root.error();
    expected = *root;
  } else {
    // One component, not followed: a symlinked /dev or /proc is refused.
    Fd mount_dir(::openat(root_fd, special.c_str(),
                          O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!mount_dir.valid())
      return sys_error("open", "/" + special + " (a plain directory of the root)", errno);
    auto id = mount_id(mount_dir.get(), "/" + special);
    if (!id) return id.error();
    expected = *id;
  }
  auto found = mount_id(dir_fd, dir);
  if (!found) return found.error();
  if (*found == expected) return ok_status();
  return make_error("{}: {} {} is on another mount than {} (mount id {}, {} {}): refusing to "
                    "place it there",
                    target, dir == target ? "directory" : "parent", dir, expected_name, *found,
                    special.empty() ? "root" : expected_name, expected);
}

}  // namespace graft::plugin
