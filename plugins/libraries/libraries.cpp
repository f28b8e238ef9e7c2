// SPDX-License-Identifier: Apache-2.0
// libraries: the driver's files inside the container. bind_mount binds a
// host file or directory (libraries, binaries, firmware) read-only unless the
// plan says rw, with the plan's nosuid/nodev/noexec; symlink makes the
// soname links; config_file writes files rules asked for (EGL/Vulkan
// profiles). The binds are cloned in prepare (host namespace) and attached in
// apply; links and files are written only in apply, inside the root.
// verify (`graft verify`) checks that each bind is still a mount of the
// host's file (bind_check.hpp); links and files are not checked.
#include <string_view>

#include "bind_check.hpp"
#include "plugin_glue.hpp"
#include "prepared_bind.hpp"
#include "replace_entry.hpp"
#include "root_path.hpp"

namespace graft::plugin {
namespace {

class Libraries {
 public:
  explicit Libraries(const Host& host) : host_(host) {}

  // Driver files live under the driver root: opened inside it (SourceRoot).
  Status prepare(const graft_action& action, const graft_apply_context& context) {
    if (action.kind != GRAFT_ACTION_BIND_MOUNT) return ok_status();
    return binds_.prepare(action, {FileType::regular, FileType::directory},
                          SourceRoot::of(host_, context));
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    RootFs root(host_, context, action, checked_);
    switch (action.kind) {
      case GRAFT_ACTION_BIND_MOUNT: return binds_.attach(action, root);
      case GRAFT_ACTION_SYMLINK: return replace_with_symlink(root, action.target, action.source);
      case GRAFT_ACTION_CONFIG_FILE:
        return replace_with_file(root, action.target,
                                 std::string_view(action.content, action.content_length));
      default: return make_error("{}: action kind {} is not a libraries kind", action.target,
                                 action.kind);
    }
  }

  Status verify(const graft_action& action, const graft_apply_context& context,
                const Findings& findings) {
    if (action.kind != GRAFT_ACTION_BIND_MOUNT) {
      findings.not_checked("the libraries plugin checks only its bind mounts");
      return ok_status();
    }
    auto source = open_source(action.source, {FileType::regular, FileType::directory},
                              SourceRoot::of(host_, context));
    if (!source) {
      findings.unknown("a mount of " + std::string(action.source), source.error().message);
      return ok_status();
    }
    return check_bind(host_, context, action.target, {.path = action.source, .st = source->st},
                      findings);
  }

 private:
  const Host& host_;
  PreparedBinds binds_;
  CheckedDirs checked_;  // for this container, across apply calls
};

}  // namespace
}  // namespace graft::plugin

GRAFT_PLUGIN(graft::plugin::Libraries, "libraries", "1.0", GRAFT_ACTION_BIND_MOUNT,
             GRAFT_ACTION_SYMLINK, GRAFT_ACTION_CONFIG_FILE)
