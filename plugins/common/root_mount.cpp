// SPDX-License-Identifier: Apache-2.0
// Mount checks for root_mount.hpp.
#include "root_mount.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "graft/base/unique_fd.hpp"
#include "mount_step.hpp"
#include "sys_error.hpp"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

namespace graft::plugin {
namespace {

// The deepest directory on `dir`'s own path (`dir` itself when every
// component is a real directory), walked from the root one component at a
// time without following a symlink; `reached` is its container path.
Result<UniqueFd> literal_ancestor(int root_fd, const std::string& dir, std::string& reached) {
  UniqueFd current(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!current.valid()) return sys_error(mount_step::copy_fd, "container root", errno);
  std::string walked;
  for (size_t start = 0; start < dir.size();) {
    size_t end = std::min(dir.find('/', start), dir.size());
    std::string name = dir.substr(start, end - start);
    start = end + 1;
    if (name.empty() || name == ".") continue;
    UniqueFd next(
        ::openat(current.get(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) break;  // a symlink, not a directory, or missing: stop here
    current = std::move(next);
    walked.append("/").append(name);
  }
  reached = walked.empty() ? std::string("/") : walked;
  return current;
}

}  // namespace

Result<std::uint64_t> mount_id(int fd, const std::string& shown) {
  struct statx stx {};
  if (::statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) != 0)
    return sys_error(mount_step::mount_id, shown, errno);
  if ((stx.stx_mask & STATX_MNT_ID) == 0)
    return make_error("{}: this kernel does not report mount ids (statx STATX_MNT_ID, Linux "
                      "5.8), so graft cannot check which mount it is on; refusing",
                      shown);
  return static_cast<std::uint64_t>(stx.stx_mnt_id);
}

Status check_target_mount(int root_fd, int dir_fd, const std::string& target,
                          const std::string& dir) {
  std::string reached;
  auto literal = literal_ancestor(root_fd, dir, reached);
  if (!literal) return literal.error();
  auto expected = mount_id(literal->get(), reached);
  if (!expected) return expected.error();
  auto found = mount_id(dir_fd, dir);
  if (!found) return found.error();
  if (*found == *expected) return ok_status();
  // The root's mount only words the refusal: asked for only then.
  auto root = mount_id(root_fd, "container root");
  if (!root) return root.error();
  bool on_root = *expected == *root;
  return make_error("{}: {} {} is on another mount than {} (mount id {}, {} {}): refusing to "
                    "place it there",
                    target, dir == target ? "directory" : "parent", dir,
                    on_root ? "the container root" : reached, *found, on_root ? "root" : reached,
                    *expected);
}

}  // namespace graft::plugin
