// SPDX-License-Identifier: Apache-2.0
// Bind mounts in two phases for prepared_bind.hpp.
#include "prepared_bind.hpp"

#include <sys/stat.h>

#include <cerrno>

#include "mount_step.hpp"
#include "sys_error.hpp"

namespace graft::plugin {

Leaf leaf_for(FileType source_type) {
  return source_type == FileType::directory ? Leaf::directory : Leaf::file;
}

Result<PreparedBind> prepare_bind(const graft_action& action,
                                  std::initializer_list<FileType> allowed,
                                  const SourceRoot& root) {
  auto attributes = mount_attributes(action);
  if (!attributes) return attributes.error();
  auto source = open_source(action.source, allowed, root);
  if (!source) return source.error();
  return prepare_bind(action, *source, *attributes);
}

Result<PreparedBind> prepare_bind(const graft_action& action, const OpenedSource& source,
                                  const MountAttributes& attributes) {
  auto mount = clone_mount(source.fd.get(), action.source);
  if (!mount) return mount.error();
  if (auto status = set_mount_attributes(mount->get(), attributes, action.source); !status)
    return status.error();
  PreparedBind bind{.target = action.target, .leaf = leaf_for(source.type),
                    .mount = std::move(*mount)};
  return bind;
}

Status attach_bind(const PreparedBind& bind, const RootFs& root) {
  auto target = root.make_mountpoint(bind.target, bind.leaf);
  if (!target) return target.error();
  if (bind.device_type != 0) {
    struct stat st {};
    if (::fstat(target->get(), &st) != 0) return sys_error(mount_step::stat_target, bind.target, errno);
    if (!S_ISREG(st.st_mode)) {
      if (auto status = expect_device(st, bind.device_type, bind.rdev, bind.target); !status)
        return status;
    }
  }
  return attach_mount(bind.mount.get(), target->get(), bind.target);
}

Error not_prepared(const graft_action& action) {
  return make_error("{}: not prepared (action {} had no prepare call)", action.target,
                    action.index);
}

Status PreparedBinds::prepare(const graft_action& action, std::initializer_list<FileType> allowed,
                              const SourceRoot& root) {
  auto bind = prepare_bind(action, allowed, root);
  if (!bind) return bind.error();
  keep(action, std::move(*bind));
  return ok_status();
}

void PreparedBinds::keep(const graft_action& action, PreparedBind bind) {
  binds_.put(action.index, std::move(bind));
}

Status PreparedBinds::attach(const graft_action& action, const RootFs& root) {
  auto bind = binds_.take(action);
  if (!bind) return bind.error();
  return attach_bind(*bind, root);
}

}  // namespace graft::plugin
