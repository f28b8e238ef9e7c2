// Host side of graft_host_services. These functions are called from plugin
// code, so nothing may throw out of them: an exception crossing into C is
// undefined behaviour.
#include "plugin_host/host_services.hpp"

#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace graft {

namespace {

void log_from_plugin(void* host, int level, const char* message) noexcept {
  try {
    const auto* services = static_cast<const HostServices*>(host);
    const char* name = services ? services->plugin_name().c_str() : "?";
    const char* text = message ? message : "";
    switch (level) {
      case GRAFT_LOG_DEBUG: spdlog::debug("plugin {}: {}", name, text); break;
      case GRAFT_LOG_INFO: spdlog::info("plugin {}: {}", name, text); break;
      case GRAFT_LOG_WARNING: spdlog::warn("plugin {}: {}", name, text); break;
      default: spdlog::error("plugin {}: {}", name, text); break;
    }
  } catch (...) {
    // Logging is best effort; a plugin must never see a host exception.
  }
}

int resolve_for_plugin(void* /*host*/, int root_fd, const char* path, int flags) noexcept {
  return open_in_root(root_fd, path, flags);
}

}  // namespace

int open_in_root(int root_fd, const char* path, int flags) {
  if (path == nullptr) return -EINVAL;
  // Without a mode argument O_CREAT would create files with mode 0; refuse
  // rather than guess. (O_TMPFILE includes the O_DIRECTORY bit, so test it whole.)
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) return -EINVAL;
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags) | O_CLOEXEC;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof how);
  return fd < 0 ? -errno : static_cast<int>(fd);
}

HostServices::HostServices(std::string plugin_name) : plugin_name_(std::move(plugin_name)) {
  table_.struct_size = sizeof(graft_host_services);
  table_.host = this;
  table_.log = log_from_plugin;
  table_.resolve_in_root = resolve_for_plugin;
}

}  // namespace graft
