// SPDX-License-Identifier: Apache-2.0
// statmount(2) and listmount(2) through syscall(): Debian 12's headers
// predate them, so the few uapi definitions used are spelled here, as
// include/uapi/linux/mount.h publishes them (the layout is append-only).
#include "mount_by_id.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace graft::cgroup {

namespace {

#ifndef SYS_statmount
#define SYS_statmount 457  // the same number on every architecture graft builds for
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif

constexpr unsigned kStatxMntIdUnique = 0x4000;  // STATX_MNT_ID_UNIQUE (6.8)

constexpr uint64_t kStatmountMntRoot = 0x08;
constexpr uint64_t kStatmountMntPoint = 0x10;
constexpr uint64_t kStatmountFsType = 0x20;
constexpr uint64_t kStatmountMntOpts = 0x80;  // 6.11; left out of mask when a mount has none

struct MntIdReq {  // struct mnt_id_req, MNT_ID_REQ_SIZE_VER0
  uint32_t size;
  uint32_t spare;
  uint64_t mnt_id;
  uint64_t param;
};

struct Statmount {  // struct statmount, up to mnt_point; strings follow at str
  uint32_t size;
  uint32_t mnt_opts;
  uint64_t mask;
  uint32_t sb_dev_major, sb_dev_minor;
  uint64_t sb_magic;
  uint32_t sb_flags;
  uint32_t fs_type;
  uint64_t mnt_id, mnt_parent_id;
  uint32_t mnt_id_old, mnt_parent_id_old;
  uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
  uint32_t mnt_root;
  uint32_t mnt_point;
  uint64_t mnt_ns_id;
  uint64_t spare2[49];
};
static_assert(offsetof(Statmount, mnt_root) == 104 && sizeof(Statmount) == 512,
              "struct statmount's published layout");

// Room for two paths of PATH_MAX and the options: a larger answer is
// EOVERFLOW, and mountinfo is read instead.
constexpr size_t kAnswerSize = 3 * 4096 + sizeof(Statmount);

// More mounts than this below one is not a cgroup v1 layout (a dozen
// controllers): one statmount each would cost more than mountinfo.
constexpr size_t kMostBelow = 64;

// The unique id of the mount `path` lies on; with `only_its_root`, nullopt
// unless `path` is where that mount is mounted.
std::optional<uint64_t> mount_id_of(const std::string& path, bool only_its_root) {
  struct statx stx {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, kStatxMntIdUnique, &stx) != 0)
    return std::nullopt;
  if ((stx.stx_mask & kStatxMntIdUnique) == 0) return std::nullopt;
  if (only_its_root && (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) == 0) return std::nullopt;
  return stx.stx_mnt_id;
}

std::optional<MountEntry> statmount(uint64_t id, std::vector<uint64_t>& answer) {
  MntIdReq request{.size = sizeof(MntIdReq), .spare = 0, .mnt_id = id,
                   .param = kStatmountMntRoot | kStatmountMntPoint | kStatmountFsType | kStatmountMntOpts};
  const size_t bytes = answer.size() * sizeof(uint64_t);
  if (::syscall(SYS_statmount, &request, answer.data(), bytes, 0) != 0) return std::nullopt;
  Statmount head;
  std::memcpy(&head, answer.data(), sizeof head);
  constexpr uint64_t needed = kStatmountMntRoot | kStatmountMntPoint | kStatmountFsType;
  if ((head.mask & needed) != needed || head.size > bytes || head.size <= sizeof head) return std::nullopt;
  const char* strings = reinterpret_cast<const char*>(answer.data()) + sizeof head;
  const size_t length = head.size - sizeof head;
  auto text = [&](uint32_t offset) -> std::optional<std::string> {
    if (offset >= length) return std::nullopt;
    const void* end = std::memchr(strings + offset, '\0', length - offset);
    if (end == nullptr) return std::nullopt;
    return std::string(strings + offset, static_cast<const char*>(end));
  };
  auto root = text(head.mnt_root), point = text(head.mnt_point), type = text(head.fs_type);
  if (!root || !point || !type) return std::nullopt;
  std::optional<std::string> options = std::string();
  if ((head.mask & kStatmountMntOpts) != 0 && !(options = text(head.mnt_opts))) return std::nullopt;
  return MountEntry{.root = *root, .mount_point = *point, .fstype = *type, .super_options = *options};
}

}  // namespace

std::optional<MountEntry> mount_at(const std::string& path) {
  auto id = mount_id_of(path, false);
  if (!id) return std::nullopt;
  std::vector<uint64_t> answer(kAnswerSize / sizeof(uint64_t));
  return statmount(*id, answer);
}

std::optional<std::vector<MountEntry>> mounts_below(const std::string& path) {
  auto id = mount_id_of(path, true);
  if (!id) return std::nullopt;
  std::vector<uint64_t> ids(kMostBelow + 1);
  MntIdReq request{.size = sizeof(MntIdReq), .spare = 0, .mnt_id = *id, .param = 0};
  long count = ::syscall(SYS_listmount, &request, ids.data(), ids.size(), 0);
  if (count < 0 || static_cast<size_t>(count) > kMostBelow) return std::nullopt;
  std::vector<MountEntry> mounts;
  std::vector<uint64_t> answer(kAnswerSize / sizeof(uint64_t));
  for (long i = 0; i < count; ++i) {
    auto mount = statmount(ids[static_cast<size_t>(i)], answer);
    if (!mount) return std::nullopt;  // unmounted meanwhile, or too long: let mountinfo say
    mounts.push_back(std::move(*mount));
  }
  return mounts;
}

}  // namespace graft::cgroup
