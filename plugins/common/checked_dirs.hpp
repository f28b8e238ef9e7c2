// SPDX-License-Identifier: Apache-2.0
// The directories of a container root one plugin has already resolved and
// checked (root_mount.hpp) during its apply phase, by container path. A plan
// puts most files in a few directories (/usr/lib/<multiarch>, /usr/bin,
// /dev): the second file in a directory costs one dup, not the openat2, the
// literal walk from the root and the two statx of a first lookup.
// A kept fd pins the directory that was checked: a later symlink swap or
// rename in the image cannot steer it, just as it could not steer the fd of
// a single lookup between the check and its use. What the plugin itself
// places at a path can change what that path and everything below it
// resolve to (a directory mounted over, a symlink replaced), so placing
// anything forgets them (RootFs::open_parent, RootFs::make_dirs). What
// another plugin places is not seen here: directories are kept only across
// consecutive actions of the plan.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::plugin {

class CheckedDirs {
 public:
  // Called with each action's plan index before it is applied: after a gap,
  // another plugin acted in between, and everything kept is forgotten.
  void start_action(std::uint32_t index);
  // A new fd of the directory checked as `path`; an invalid fd when there
  // is none.
  Result<UniqueFd> find(const std::string& path) const;
  // Keeps a duplicate of `fd`, the directory `path` resolved and checked.
  Status remember(const std::string& path, int fd);
  // Forgets `path` and every directory below it.
  void forget_at_or_under(const std::string& path);

 private:
  std::map<std::string, UniqueFd> dirs_;
  std::optional<std::uint32_t> last_index_;
};

}  // namespace graft::plugin
