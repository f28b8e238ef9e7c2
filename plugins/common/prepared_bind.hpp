// SPDX-License-Identifier: Apache-2.0
// A bind mount split across the two namespaces: prepare checks the host
// source and clones it into a detached mount with the plan's flags (host
// mount namespace); apply makes the mountpoint inside the container root and
// attaches the clone (container mount namespace). Prepared<T> keeps what
// prepare made, keyed by the action's plan index, until apply takes it;
// PreparedBinds is the whole of it for a plugin whose binds need nothing
// else.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "graft/base/error.hpp"
#include "detached_mount.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"
#include "root_path.hpp"
#include "source_check.hpp"

namespace graft::plugin {

struct PreparedBind {
  std::string target;  // the container path it goes to
  Leaf leaf = Leaf::file;
  UniqueFd mount;            // the detached clone
  // For device nodes: an existing node at the target must be this one.
  char device_type = 0;
  dev_t rdev = 0;
};

// A directory source is mounted on a directory, anything else on a file.
Leaf leaf_for(FileType source_type);

// Checks action.source (opened inside `root` when below it, see
// source_check.hpp) is one of `allowed`, clones it and gives the clone
// exactly the plan's flags (mount_attributes).
Result<PreparedBind> prepare_bind(const graft_action& action,
                                  std::initializer_list<FileType> allowed,
                                  const SourceRoot& root = {});

// Clones an already checked source (open_source / open_device_source).
Result<PreparedBind> prepare_bind(const graft_action& action, const OpenedSource& source,
                                  const MountAttributes& attributes);

// Makes the mountpoint at bind.target inside `root` and attaches the clone.
Status attach_bind(const PreparedBind& bind, const RootFs& root);

// The error of an action whose prepare never ran (or whose apply runs twice).
Error not_prepared(const graft_action& action);

// What prepare made for each action, taken once by apply.
template <class T>
class Prepared {
 public:
  void put(std::uint32_t index, T value) { items_.insert_or_assign(index, std::move(value)); }

  // Fails closed when prepare never ran for this action (or apply runs twice).
  Result<T> take(const graft_action& action) {
    auto found = items_.find(action.index);
    if (found == items_.end()) return not_prepared(action);
    T value = std::move(found->second);
    items_.erase(found);
    return value;
  }

 private:
  std::map<std::uint32_t, T> items_;
};

// The bind_mount actions of a plugin, from prepare to apply.
class PreparedBinds {
 public:
  // prepare_bind, kept for attach.
  Status prepare(const graft_action& action, std::initializer_list<FileType> allowed,
                 const SourceRoot& root = {});
  // Keeps a bind the plugin prepared itself.
  void keep(const graft_action& action, PreparedBind bind);
  // Takes what was kept for the action and attaches it inside `root`.
  Status attach(const graft_action& action, const RootFs& root);

 private:
  Prepared<PreparedBind> binds_;
};

}  // namespace graft::plugin
