// SPDX-License-Identifier: Apache-2.0
// pidfd liveness (pidfd.hpp).
#include "graft/base/pidfd.hpp"

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace graft {

Result<UniqueFd> open_pidfd(int pid) {
  if (pid <= 0) return make_error("container process {}: not a process id", pid);
  UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd.valid())
    return make_error("container process {}: {}", pid,
                      errno == ESRCH ? "no such process (exited?)" : std::strerror(errno));
  return pidfd;
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

}  // namespace graft
