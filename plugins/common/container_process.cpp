// Reading /proc/<pid>/... of the container's init and confirming it through
// its pidfd (container_process.hpp).
#include "container_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "fd.hpp"

namespace graft::plugin {

int pid_of(const graft_apply_context& context) {
  if (context.struct_size < offsetof(graft_apply_context, pid) + sizeof context.pid) return 0;
  return context.pid;
}

int pidfd_of(const graft_apply_context& context) {
  if (context.struct_size < offsetof(graft_apply_context, pidfd) + sizeof context.pidfd) return -1;
  return context.pidfd;
}

// A pidfd polls readable once its process has exited; pidfd_send_signal(0)
// would still succeed while it is a zombie.
bool process_running(int pidfd) {
  struct pollfd poll_fd {.fd = pidfd, .events = POLLIN, .revents = 0};
  return ::poll(&poll_fd, 1, 0) == 0;
}

Status confirm_running(int pidfd, int pid, std::string_view what) {
  if (process_running(pidfd)) return ok_status();
  return make_error("container process {} exited while graft read {}", pid, what);
}

Result<std::string> read_container_proc(int pidfd, int pid, const std::string& name,
                                        std::string_view what) {
  const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
  Fd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!file.valid()) return make_error("cannot read {}: {}", path, std::strerror(errno));
  std::string text;
  char buffer[4096];
  ssize_t got = 0;
  while (text.size() <= (1u << 20) && (got = ::read(file.get(), buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  if (got < 0) return make_error("cannot read {}: {}", path, std::strerror(errno));
  if (auto running = confirm_running(pidfd, pid, what); !running) return running.error();
  return text;
}

}  // namespace graft::plugin
