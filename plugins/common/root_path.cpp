// SPDX-License-Identifier: Apache-2.0
// Safe container paths for root_path.hpp.
#include "root_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "root_mount.hpp"
#include "source_check.hpp"
#include "mount_step.hpp"
#include "sys_error.hpp"

namespace graft::plugin {

namespace {

// Modes are set exactly (0666 device nodes): the hook inherits the
// runtime's umask, which is not ours to trust. Plugins run single-threaded.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t old_;
};

bool leaf_accepts(Leaf leaf, FileType type) {
  switch (leaf) {
    case Leaf::file: return type == FileType::regular;
    case Leaf::directory: return type == FileType::directory;
    case Leaf::device:
      return type == FileType::regular || type == FileType::char_device ||
             type == FileType::block_device;
  }
  return false;
}

const char* leaf_wanted(Leaf leaf) {
  switch (leaf) {
    case Leaf::file: return "a regular file";
    case Leaf::directory: return "a directory";
    case Leaf::device: return "a regular file or a device node";
  }
  return "?";
}

// The entry `name` as O_PATH|O_NOFOLLOW, refused unless `leaf` accepts it.
// `seen`, when given, receives what fstat saw.
Result<UniqueFd> open_leaf(int parent_fd, const std::string& name, Leaf leaf,
                           const std::string& shown, struct stat* seen = nullptr) {
  UniqueFd fd(::openat(parent_fd, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return sys_error(mount_step::open_target, shown, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return sys_error(mount_step::stat_target, shown, errno);
  if (seen != nullptr) *seen = st;
  FileType found = file_type(st.st_mode);
  if (!leaf_accepts(leaf, found))
    return make_error("{} exists and is {}, expected {}", shown, describe(found), leaf_wanted(leaf));
  return fd;
}

// Hands a just-created entry to the container's owner with an exact mode.
Status settle(int fd, mode_t mode, Owner owner, const std::string& shown) {
  if (::fchown(fd, owner.uid, owner.gid) != 0) return sys_error(mount_step::own_target, shown, errno);
  if (::fchmod(fd, mode) != 0) return sys_error(mount_step::mode_target, shown, errno);
  return ok_status();
}

// {"a", "b"} -> "/a/b", {} -> "/": one spelling of each directory for
// CheckedDirs, whatever slashes the plan's path had.
std::string joined_path(std::span<const std::string> names) {
  if (names.empty()) return "/";
  std::string path;
  for (const auto& name : names) path.append("/").append(name);
  return path;
}

}  // namespace

Status check_plain_container_path(const std::string& path, const char* what) {
  bool ok = !path.empty() && path.front() == '/' && path.find("/../") == std::string::npos &&
            !path.ends_with("/..");
  for (char c : path) ok = ok && static_cast<unsigned char>(c) >= 0x20;
  if (!ok) return make_error("{} '{}' is not a plain absolute container path", what, path);
  return ok_status();
}

Result<std::vector<std::string>> split_container_path(const std::string& path) {
  if (path.empty() || path[0] != '/')
    return make_error("container path '{}' is not absolute", path);
  std::vector<std::string> names;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string name = path.substr(start, end - start);
    if (name == "." || name == "..")
      return make_error("container path '{}' contains '{}'", path, name);
    if (!name.empty()) names.push_back(std::move(name));
    start = end + 1;
  }
  return names;
}

std::string leaf_name(const std::string& path) {
  size_t end = path.find_last_not_of('/');
  if (end == std::string::npos) return "";
  size_t slash = path.rfind('/', end);
  return path.substr(slash == std::string::npos ? 0 : slash + 1,
                     end - (slash == std::string::npos ? 0 : slash + 1) + 1);
}

Result<UniqueFd> make_dir_at(int parent_fd, const std::string& name, Owner owner,
                             const std::string& shown) {
  if (::mkdirat(parent_fd, name.c_str(), 0755) == 0) {
    // O_DIRECTORY|O_NOFOLLOW: what is opened is a directory, whatever the
    // container did to the name since; that fd is the one handed back.
    UniqueFd made(
        ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!made.valid()) return sys_error(mount_step::open_target, shown, errno);
    if (auto status = settle(made.get(), 0755, owner, shown); !status) return status.error();
    return made;
  } else if (errno != EEXIST) {
    return sys_error(mount_step::make_directory, shown, errno);
  }
  // Reopened without following: an entry swapped for a symlink is refused.
  return open_leaf(parent_fd, name, Leaf::directory, shown);
}

Result<UniqueFd> make_dirs_at(int dir_fd, std::span<const std::string> names, Owner owner,
                              const std::string& shown) {
  UniqueFd current(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
  if (!current.valid()) return sys_error(mount_step::copy_fd, shown, errno);
  std::string path = shown == "/" ? "" : shown;
  for (const auto& name : names) {
    path += "/" + name;
    auto next = make_dir_at(current.get(), name, owner, path);
    if (!next) return next;
    current = std::move(*next);
  }
  return current;
}

Result<UniqueFd> make_leaf_at(int parent_fd, const std::string& name, Leaf leaf, Owner owner,
                              const std::string& shown) {
  if (leaf == Leaf::directory) return make_dir_at(parent_fd, name, owner, shown);
  // Created read-only: a mount with a file open for writing cannot be made
  // read-only (EBUSY), as the procfs mask is once filled. O_EXCL made the
  // file this fd names, never through a symlink, so it is handed back as it
  // is, without opening the name again.
  UniqueFd made(::openat(parent_fd, name.c_str(),
                         O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (made.valid()) {
    if (auto status = settle(made.get(), 0644, owner, shown); !status) return status.error();
    return made;
  }
  if (errno != EEXIST) return sys_error(mount_step::create_file, shown, errno);
  return open_leaf(parent_fd, name, leaf, shown);
}

Result<UniqueFd> make_node_at(int parent_fd, const std::string& name, char device_type, dev_t rdev,
                              Owner owner, const std::string& shown) {
  mode_t type = device_type == 'b' ? S_IFBLK : S_IFCHR;
  int made = 0;
  {
    ScopedUmask no_mask(0);
    made = ::mknodat(parent_fd, name.c_str(), type | 0666, rdev);
  }
  if (made == 0) {
    if (::fchownat(parent_fd, name.c_str(), owner.uid, owner.gid, AT_SYMLINK_NOFOLLOW) != 0)
      return sys_error(mount_step::own_node, shown, errno);
  } else if (errno != EEXIST) {
    return sys_error(mount_step::make_node, shown, errno);
  }
  struct stat st {};
  auto fd = open_leaf(parent_fd, name, Leaf::device, shown, &st);
  if (!fd) return fd;
  if (auto status = expect_device(st, device_type, rdev, shown); !status) return status.error();
  return fd;
}

RootFs::RootFs(const Host& host, const graft_apply_context& context)
    : host_(host), root_fd_(context.rootfs_fd), owner_{context.container_uid, context.container_gid} {}

RootFs::RootFs(const Host& host, const graft_apply_context& context, const graft_action& action,
               CheckedDirs& checked)
    : RootFs(host, context) {
  checked.start_action(action.index);
  checked_ = &checked;
}

Result<UniqueFd> RootFs::open(const std::string& path, int flags) const {
  if (root_fd_ < 0) return make_error("{}: no container root to resolve it in", path);
  int fd = host_.resolve_in_root(root_fd_, path, flags);
  if (fd < 0) return sys_error(mount_step::resolve_target, path, -fd);
  return UniqueFd(fd);
}

Result<UniqueFd> RootFs::open_dirs(std::span<const std::string> names,
                                   const std::string& target) const {
  const std::string path = joined_path(names);
  if (checked_ == nullptr) return resolve_dirs(path, names, target);
  auto kept = checked_->find(path);
  if (!kept || kept->valid()) return kept;
  auto resolved = resolve_dirs(path, names, target);
  if (!resolved) return resolved;
  if (auto status = checked_->remember(path, resolved->get()); !status) return status.error();
  return resolved;
}

Result<UniqueFd> RootFs::resolve_dirs(const std::string& path, std::span<const std::string> names,
                                      const std::string& target) const {
  if (root_fd_ < 0) return make_error("{}: no container root to resolve it in", path);
  // Usually everything exists: one lookup. Otherwise find the deepest
  // existing directory and create the rest below it. Either way the
  // directory must sit on the mount the target belongs to (root_mount.hpp);
  // what is created below a checked directory is on its mount.
  int whole = host_.resolve_in_root(root_fd_, path, O_PATH | O_DIRECTORY);
  if (whole >= 0) {
    UniqueFd found(whole);
    if (auto status = check_target_mount(root_fd_, found.get(), target, path); !status)
      return status.error();
    return found;
  }
  if (whole != -ENOENT) return sys_error(mount_step::resolve_target, path, -whole);
  auto current = open("/", O_PATH | O_DIRECTORY);
  if (!current) return current;
  std::string prefix;
  size_t existing = 0;
  for (; existing < names.size(); ++existing) {
    std::string next = prefix + "/" + names[existing];
    int fd = host_.resolve_in_root(root_fd_, next, O_PATH | O_DIRECTORY);
    if (fd == -ENOENT) break;
    if (fd < 0) return sys_error(mount_step::resolve_target, next, -fd);
    *current = UniqueFd(fd);
    prefix = next;
  }
  std::string shown = prefix.empty() ? "/" : prefix;
  if (auto status = check_target_mount(root_fd_, current->get(), target, shown); !status)
    return status.error();
  return make_dirs_at(current->get(), names.subspan(existing), owner_, shown);
}

Result<UniqueFd> RootFs::make_dirs(const std::string& path) const {
  auto names = split_container_path(path);
  if (!names) return names.error();
  // The caller places something at `path` (a mount over the directory):
  // it is neither taken from the kept directories nor kept.
  const std::string dir = joined_path(*names);
  if (checked_ != nullptr) checked_->forget_at_or_under(dir);
  return resolve_dirs(dir, *names, dir);
}

Result<UniqueFd> RootFs::open_parent(const std::string& path) const {
  auto names = split_container_path(path);
  if (!names) return names.error();
  if (names->empty()) return make_error("container path '{}' has no parent", path);
  // The caller places something at `path`: what it and anything below it
  // resolve to may change.
  if (checked_ != nullptr) checked_->forget_at_or_under(joined_path(*names));
  return open_dirs(std::span<const std::string>(names->data(), names->size() - 1), path);
}

Result<UniqueFd> RootFs::make_mountpoint(const std::string& path, Leaf leaf) const {
  auto parent = open_parent(path);
  if (!parent) return parent;
  return make_leaf_at(parent->get(), leaf_name(path), leaf, owner_, path);
}

}  // namespace graft::plugin
