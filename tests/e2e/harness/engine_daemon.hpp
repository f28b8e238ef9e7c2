// SPDX-License-Identifier: Apache-2.0
// A container engine's daemon (dockerd, containerd) started by a test with
// all its state in the test's own directories: its own process, its output
// in a log file, stopped by its pid (SIGTERM, then SIGKILL after a bound)
// and reaped, whatever way the test ends.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace graft::e2e {

class EngineDaemon {
 public:
  // Starts argv[0] (an absolute path) with `argv`, stdout and stderr to `log_path`.
  EngineDaemon(const std::vector<std::string>& argv, std::string log_path);
  ~EngineDaemon();  // stop()
  EngineDaemon(const EngineDaemon&) = delete;
  EngineDaemon& operator=(const EngineDaemon&) = delete;

  pid_t pid() const { return pid_; }

  // Polls `ready` until it says yes, the daemon exits, or `limit` passes:
  // "" when ready, else why not, with the end of the daemon's log.
  std::string wait_until(const std::function<bool()>& ready, std::chrono::seconds limit);

  // SIGTERM, up to 20 s for it to exit, then SIGKILL; reaped either way.
  // `also_kill` (a pid file the daemon wrote for a child it started, such
  // as dockerd's containerd) is killed too when the daemon had to be.
  void stop(const std::string& also_kill = "");

  // The last `bytes` of the daemon's log.
  std::string log_tail(std::size_t bytes = 2000) const;

 private:
  bool exited();  // reaps it when it has

  pid_t pid_ = -1;
  std::string log_path_;
};

// Lines of /proc/self/mountinfo that mention `path`: what a daemon left mounted.
std::vector<std::string> mounts_under(const std::string& path);

}  // namespace graft::e2e
