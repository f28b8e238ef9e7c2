// SPDX-License-Identifier: Apache-2.0
// devices: makes host device nodes appear inside the container.
//
// device_node with "bind" (the host has the node): prepare checks the host
// node is the expected type and number and clones it read-only with nodev
// cleared (the node is the point; nosuid and noexec stay set). Read-only
// still allows device I/O (the kernel checks a read-only mount only for
// regular files, directories and links), but a container root can no longer
// chmod or chown the host's node through the bind. Apply binds it onto an
// empty file at the target. With "mknod" (no host node to bind) apply makes
// the node itself, mode 0666, owned by the container's owner. Either way an
// existing node at the target with the same type and number is accepted:
// the runtime may have made it from linux.devices.
//
// bind_mount: whole device directories (extra bind_dev), flags as planned.
//
// verify (`graft verify`): a bound node or directory must still be a mount
// of the host's own (bind_check.hpp); a node made with mknod must still be
// that node.
#include <linux/mount.h>
#include <sys/sysmacros.h>

#include "bind_check.hpp"
#include "plugin_glue.hpp"
#include "prepared_bind.hpp"
#include "root_path.hpp"

namespace graft::plugin {
namespace {

constexpr MountAttributes kNodeAttributes{.set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC,
                                          .clear = MOUNT_ATTR_NODEV};

bool node_by_mknod(const graft_action& action) { return has_option(action, "mknod"); }

Status check_node_options(const graft_action& action) {
  bool bind = has_option(action, "bind"), mknod = has_option(action, "mknod");
  if (bind == mknod)
    return make_error("{}: device_node needs exactly one of the options bind, mknod",
                      action.target);
  return ok_status();
}

class Devices {
 public:
  explicit Devices(const Host& host) : host_(host) {}

  Status prepare(const graft_action& action, const graft_apply_context&) {
    if (action.kind != GRAFT_ACTION_DEVICE_NODE)
      return binds_.prepare(action, {FileType::directory});
    if (auto status = check_node_options(action); !status) return status;
    if (node_by_mknod(action)) return ok_status();
    auto bind = prepare_node_bind(action);
    if (!bind) return bind.error();
    binds_.keep(action, std::move(*bind));
    return ok_status();
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    RootFs root(host_, context, action, checked_);
    if (action.kind == GRAFT_ACTION_DEVICE_NODE && node_by_mknod(action)) return mknod(action, root);
    return binds_.attach(action, root);
  }

  Status verify(const graft_action& action, const graft_apply_context& context,
                const Findings& findings) {
    const bool node = action.kind == GRAFT_ACTION_DEVICE_NODE;
    if (node) {
      if (auto status = check_node_options(action); !status) return status;
      if (node_by_mknod(action))
        return check_node(host_, context, action.target, action.device_type,
                          makedev(action.major, action.minor), findings);
    }
    auto source = node ? open_device_source(action.source, action.device_type, action.major,
                                            action.minor)
                       : open_source(action.source, {FileType::directory});
    if (!source) {
      findings.unknown("a mount of " + std::string(action.source), source.error().message);
      return ok_status();
    }
    BoundSource bound{.path = action.source, .st = source->st,
                      .device_type = node ? action.device_type : '\0'};
    return check_bind(host_, context, action.target, bound, findings);
  }

 private:
  // A bind of the host node, checked for type and number.
  static Result<PreparedBind> prepare_node_bind(const graft_action& action) {
    auto source = open_device_source(action.source, action.device_type, action.major,
                                     action.minor);
    if (!source) return source.error();
    auto bind = prepare_bind(action, *source, kNodeAttributes);
    if (!bind) return bind;
    bind->leaf = Leaf::device;
    bind->device_type = action.device_type;
    bind->rdev = makedev(action.major, action.minor);
    return bind;
  }

  static Status mknod(const graft_action& action, const RootFs& root) {
    auto parent = root.open_parent(action.target);
    if (!parent) return parent.error();
    auto node = make_node_at(parent->get(), leaf_name(action.target), action.device_type,
                             makedev(action.major, action.minor), root.owner(), action.target);
    if (!node) return node.error();
    return ok_status();
  }

  const Host& host_;
  PreparedBinds binds_;
  CheckedDirs checked_;  // for this container, across apply calls
};

}  // namespace
}  // namespace graft::plugin

GRAFT_PLUGIN(graft::plugin::Devices, "devices", "1.0", GRAFT_ACTION_DEVICE_NODE,
             GRAFT_ACTION_BIND_MOUNT)
