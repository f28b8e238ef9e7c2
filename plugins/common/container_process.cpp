// SPDX-License-Identifier: Apache-2.0
// Reading /proc/<pid>/... of the container's init and confirming it through
// its pidfd (container_process.hpp).
#include "container_process.hpp"

#include <fcntl.h>

#include <cstddef>

#include "graft/base/bounded_read.hpp"
#include "graft/base/pidfd.hpp"

namespace graft::plugin {

int pid_of(const graft_apply_context& context) {
  if (context.struct_size < offsetof(graft_apply_context, pid) + sizeof context.pid) return 0;
  return context.pid;
}

int pidfd_of(const graft_apply_context& context) {
  if (context.struct_size < offsetof(graft_apply_context, pidfd) + sizeof context.pidfd) return -1;
  return context.pidfd;
}

Result<std::string> read_container_proc(int pidfd, int pid, const std::string& name,
                                        std::string_view what) {
  // A /proc file of a process is far smaller than 1 MiB.
  auto text = read_file("/proc/" + std::to_string(pid) + "/" + name, 1u << 20, O_NOFOLLOW);
  if (!text) return text.error();
  if (auto running = confirm_running(pidfd, pid, what); !running) return running.error();
  return text;
}

}  // namespace graft::plugin
