// SPDX-License-Identifier: Apache-2.0
// ipc: the driver daemons' sockets and pipes inside the container
// (nvidia-persistenced, fabric manager, the MPS pipe directory). Like a
// library bind, but the source must be a socket, FIFO or directory, and the
// mount is normally writable (clients connect and write): the flags are
// exactly the plan's (rw,nosuid,nodev,noexec). Sockets and FIFOs are mounted
// on an empty file, directories on a directory. verify (`graft verify`)
// checks each is still a mount of the host's endpoint (bind_check.hpp).
#include "bind_check.hpp"
#include "plugin_glue.hpp"
#include "prepared_bind.hpp"
#include "root_path.hpp"

namespace graft::plugin {
namespace {

class Ipc {
 public:
  explicit Ipc(const Host& host) : host_(host) {}

  Status prepare(const graft_action& action, const graft_apply_context&) {
    return binds_.prepare(action, {FileType::socket, FileType::fifo, FileType::directory});
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    return binds_.attach(action, RootFs(host_, context, action, checked_));
  }

  Status verify(const graft_action& action, const graft_apply_context& context,
                const Findings& findings) {
    auto source = open_source(action.source, {FileType::socket, FileType::fifo, FileType::directory});
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

GRAFT_PLUGIN(graft::plugin::Ipc, "ipc", "1.0", GRAFT_ACTION_BIND_MOUNT)
