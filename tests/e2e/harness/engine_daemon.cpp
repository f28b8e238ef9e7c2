// SPDX-License-Identifier: Apache-2.0
#include "engine_daemon.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "fixture_files.hpp"
#include "host_mounts.hpp"

namespace graft::e2e {

EngineDaemon::EngineDaemon(const std::vector<std::string>& argv, std::string log_path)
    : log_path_(std::move(log_path)) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::dup2(log, 1);
    ::dup2(log, 2);
    ::setsid();  // the daemon's children (shims) are not in the test's process group
    // A test killed by ctest's timeout cannot stop it: the daemon then stops itself.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
}

EngineDaemon::~EngineDaemon() { stop(); }

bool EngineDaemon::exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  return true;
}

std::string EngineDaemon::wait_until(const std::function<bool()>& ready, std::chrono::seconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return "";
    if (exited()) return "the daemon exited at start: " + log_tail();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "the daemon was not ready after " + std::to_string(limit.count()) + " s: " + log_tail();
}

void EngineDaemon::stop(const std::string& also_kill) {
  if (exited()) return;
  ::kill(pid_, SIGTERM);
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < end) {
    if (exited()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
  if (also_kill.empty()) return;
  std::ifstream in(also_kill);
  pid_t child = 0;
  if (in >> child && child > 1) ::kill(child, SIGKILL);
}

std::string EngineDaemon::log_tail(std::size_t bytes) const {
  std::string log = fixture::read_file(log_path_);
  return log.size() > bytes ? log.substr(log.size() - bytes) : log;
}

std::vector<std::string> mounts_under(const std::string& path) {
  std::vector<std::string> found;
  for (const auto& line : mountinfo_lines())
    if (line.find(path) != std::string::npos) found.push_back(line);
  return found;
}

}  // namespace graft::e2e
