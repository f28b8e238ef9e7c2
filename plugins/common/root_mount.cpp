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

// "dev" for "/dev/nvidia0", "usr" for "/usr/lib/x"; "" for "/".
std::string first_component(const std::string& target) {
  size_t start = target.find_first_not_of('/');
  if (start == std::string::npos) return "";
  return target.substr(start, target.find('/', start) - start);
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
  auto root = mount_id(root_fd, "container root");
  if (!root) return root.error();
  std::uint64_t expected = *root;
  std::string expected_name = "the container root";
  // The entry itself, never through a symlink: a runtime's mount at /dev is
  // what /dev targets belong to; an image's /dev -> /data is not.
  std::string first = first_component(target);
  Fd top(first.empty() ? -1
                       : ::openat(root_fd, first.c_str(),
                                  O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (top.valid()) {
    auto id = mount_id(top.get(), "/" + first);
    if (!id) return id.error();
    if (*id != expected) {
      expected = *id;
      expected_name = "/" + first;
    }
  }
  auto found = mount_id(dir_fd, dir);
  if (!found) return found.error();
  if (*found == expected) return ok_status();
  return make_error("{}: {} {} is on another mount than {} (mount id {}, {} {}): refusing to "
                    "place it there",
                    target, dir == target ? "directory" : "parent", dir, expected_name, *found,
                    expected_name == "the container root" ? "root" : expected_name, expected);
}

}  // namespace graft::plugin
