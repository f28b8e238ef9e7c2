// SPDX-License-Identifier: Apache-2.0
// Container paths, resolved only inside the container's root. The rootfs
// belongs to whoever built the image, so every existing path is opened with
// Host::resolve_in_root (openat2 RESOLVE_IN_ROOT|RESOLVE_NO_MAGICLINKS: "..",
// absolute and relative symlinks all stay inside the root), never by joining
// strings. What is missing is created one component at a time, relative to
// an fd already inside the root and without following symlinks, and handed
// to the container's owner.
#pragma once

#include <sys/types.h>

#include <span>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"
#include "checked_dirs.hpp"
#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::plugin {

// What a mountpoint must be. An existing entry is accepted only with that
// type: `file` a regular file, `directory` a directory, `device` a regular
// file or a device node (a runtime may have made the node already).
enum class Leaf { file, directory, device };

// Who owns what a plugin creates in the rootfs (graft_apply_context).
struct Owner {
  uid_t uid = 0;
  gid_t gid = 0;
};

// A path a plan names inside the container that is safe to hand on as text
// (to ldconfig's command line, into a cache entry): absolute, no "..", no
// control character that could be read as a separator. `what` names it in
// the error.
Status check_plain_container_path(const std::string& path, const char* what);

// "/a/b/c" -> {"a", "b", "c"}. Refuses relative paths, "." and "..", so a
// path means what it says before resolution even starts.
Result<std::vector<std::string>> split_container_path(const std::string& path);

// The primitives, relative to a directory fd the caller trusts (inside the
// root, or a detached tmpfs of the plugin's own). `name` is one component;
// `shown` is the full path for messages. Each returns an fd of the entry,
// never through a symlink: an entry just made, the O_RDONLY fd it was made
// (a file) or settled (a directory) through; anything else opened
// O_PATH|O_NOFOLLOW and checked with fstat.
//
// A directory `name`, made (mode 0755, chowned) unless it already is one.
Result<UniqueFd> make_dir_at(int parent_fd, const std::string& name, Owner owner,
                             const std::string& shown);
// Directories `names` below `dir_fd`, each made as by make_dir_at.
Result<UniqueFd> make_dirs_at(int dir_fd, std::span<const std::string> names, Owner owner,
                              const std::string& shown);
// A mountpoint `name` of type `leaf` (an empty 0644 file, or a 0755
// directory), made with O_EXCL semantics unless an entry of that type exists.
Result<UniqueFd> make_leaf_at(int parent_fd, const std::string& name, Leaf leaf, Owner owner,
                              const std::string& shown);
// A device node `name` (mode 0666 exactly, whatever the umask), or the
// existing one when it has the same type and number.
Result<UniqueFd> make_node_at(int parent_fd, const std::string& name, char device_type, dev_t rdev,
                              Owner owner, const std::string& shown);

// The container root of one apply call.
class RootFs {
 public:
  RootFs(const Host& host, const graft_apply_context& context);
  // For `action`, reusing the directories `checked` (kept by the plugin
  // across its apply calls) already resolved and checked.
  RootFs(const Host& host, const graft_apply_context& context, const graft_action& action,
         CheckedDirs& checked);

  Owner owner() const { return owner_; }

  // resolve_in_root(path, flags): a new fd or an error naming `path`.
  Result<UniqueFd> open(const std::string& path, int flags) const;
  // Each of these refuses a directory that is not on the mount the target
  // belongs to (root_mount.hpp): a symlink in the image cannot steer graft
  // onto a volume, /dev/shm or an earlier bind.
  // The directory `path` (O_PATH), made with any missing parents.
  Result<UniqueFd> make_dirs(const std::string& path) const;
  // The directory holding `path`'s last component (O_PATH), made as needed.
  Result<UniqueFd> open_parent(const std::string& path) const;
  // The mountpoint at `path`, with its parents (see make_leaf_at).
  Result<UniqueFd> make_mountpoint(const std::string& path, Leaf leaf) const;

 private:
  // The directory of the components `names`, made as needed, on the mount
  // `target` belongs to (root_mount.hpp); kept in and taken from checked_.
  Result<UniqueFd> open_dirs(std::span<const std::string> names, const std::string& target) const;
  // The same directory, `path` spelled out, always resolved and checked.
  Result<UniqueFd> resolve_dirs(const std::string& path, std::span<const std::string> names,
                                const std::string& target) const;

  const Host& host_;
  int root_fd_;
  Owner owner_;
  CheckedDirs* checked_ = nullptr;
};

// The last component of a container path ("c" for "/a/b/c").
std::string leaf_name(const std::string& path);

}  // namespace graft::plugin
