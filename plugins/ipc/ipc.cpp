// ipc: the driver daemons' sockets and pipes inside the container
// (nvidia-persistenced, fabric manager, the MPS pipe directory). Like a
// library bind, but the source must be a socket, FIFO or directory, and the
// mount is normally writable (clients connect and write): the flags are
// exactly the plan's (rw,nosuid,nodev,noexec). Sockets and FIFOs are mounted
// on an empty file, directories on a directory.
#include <memory>

#include "plugin_glue.hpp"
#include "prepared_bind.hpp"
#include "root_path.hpp"

namespace graft::plugin {
namespace {

class Ipc {
 public:
  explicit Ipc(const Host& host) : host_(host) {}

  static Result<std::unique_ptr<Ipc>> create(const Host& host, const nlohmann::json& config) {
    if (auto keys = check_config_keys(config, {}); !keys) return keys.error();
    return std::make_unique<Ipc>(host);
  }

  Status prepare(const graft_action& action, const graft_apply_context&) {
    auto attributes = mount_attributes(action);
    if (!attributes) return attributes.error();
    auto bind = prepare_bind(action, {FileType::socket, FileType::fifo, FileType::directory},
                             *attributes);
    if (!bind) return bind.error();
    binds_.put(action.index, std::move(*bind));
    return ok_status();
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    auto bind = binds_.take(action);
    if (!bind) return bind.error();
    return attach_bind(*bind, RootFs(host_, context));
  }

 private:
  const Host& host_;
  Prepared<PreparedBind> binds_;
};

}  // namespace
}  // namespace graft::plugin

GRAFT_PLUGIN(graft::plugin::Ipc, "ipc", "1.0", GRAFT_ACTION_BIND_MOUNT)
