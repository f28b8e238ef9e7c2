// SPDX-License-Identifier: Apache-2.0
#include "verify/runtime_state.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "graft/base/one_line.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

constexpr std::size_t kMaxRuntimeErrorBytes = 64u << 10;

struct Captured {
  std::string out, err;
};

// The child: stdout and stderr to the pipes, stdin from /dev/null, killed
// with graft; execve with an empty environment. Never returns.
[[noreturn]] void exec_runtime(const std::vector<std::string>& argv, pid_t parent, int out, int err) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  char* environment[] = {nullptr};
  ::execve(args[0], args.data(), environment);
  ::_exit(127);
}

// Reads both pipes to their end, each within its bound.
Status read_both(int out, int err, Captured& captured) {
  std::array<pollfd, 2> fds{pollfd{out, POLLIN, 0}, pollfd{err, POLLIN, 0}};
  std::array<std::string*, 2> into{&captured.out, &captured.err};
  const std::array<std::size_t, 2> limits{kMaxOciStateBytes, kMaxRuntimeErrorBytes};
  for (int open = 2; open > 0;) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return make_sys_error(errno, "poll");
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        fds[i].fd = -1, --open;
        continue;
      }
      into[i]->append(buffer, static_cast<std::size_t>(got));
      if (into[i]->size() > limits[i]) return make_error("it wrote more than {} bytes", limits[i]);
    }
  }
  return ok_status();
}

Result<int> wait_for(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) return make_sys_error(errno, "waitpid");
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

// Runs argv, capturing what it writes; the exit code, or an error.
Result<int> run_captured(const std::vector<std::string>& argv, Captured& captured) {
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return make_sys_error(errno, "pipe");
  UniqueFd out_read(out[0]), out_write(out[1]);
  if (::pipe2(err, O_CLOEXEC) != 0) return make_sys_error(errno, "pipe");
  UniqueFd err_read(err[0]), err_write(err[1]);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) return make_sys_error(errno, "fork");
  if (child == 0) exec_runtime(argv, parent, out_write.get(), err_write.get());
  out_write = UniqueFd(), err_write = UniqueFd();
  Status read = read_both(out_read.get(), err_read.get(), captured);
  if (!read) ::kill(child, SIGKILL);
  auto code = wait_for(child);
  if (!read) return read.error();
  return code;
}

// The runtime's complaint: its last non-empty stderr line.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

// The state's "status" ("" when it has none): a stopped container has no
// pid, and saying so beats parse_oci_state's complaint about the pid.
std::string state_status(const std::string& text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("status") || !json["status"].is_string()) return "";
  return json["status"].get<std::string>();
}

}  // namespace

Result<std::string> find_runtime_binary(const std::string& runtime) {
  if (runtime.empty()) return make_error("no runtime named");
  if (runtime.find('/') != std::string::npos) return runtime;
  for (const char* dir : {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}) {
    std::string path = std::string(dir) + "/" + runtime;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return make_error("runtime '{}' is not in /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, "
                    "/sbin or /bin (give --runtime PATH)",
                    runtime);
}

Result<OciState> query_runtime_state(const RuntimeStateQuery& query) {
  if (query.id.empty() || query.id.front() == '-')
    return make_error("container id '{}' is not one a runtime gives", one_line(query.id));
  auto binary = find_runtime_binary(query.runtime);
  if (!binary) return binary.error();
  std::vector<std::string> argv{*binary};
  if (!query.root.empty()) argv.insert(argv.end(), {"--root", query.root});
  argv.insert(argv.end(), {"state", query.id});
  const std::string asked = fmt::format("{}{} state {}", *binary,
                                        query.root.empty() ? "" : " --root " + query.root, query.id);
  Captured captured;
  auto code = run_captured(argv, captured);
  if (!code) return code.error().context(asked);
  if (*code != 0)
    return make_error("{}: exit {}{}", asked, *code,
                      captured.err.empty() ? "" : ": " + one_line(last_line(captured.err)));
  if (auto status = state_status(captured.out); status == "stopped" || status == "creating")
    return make_error("{}: the container is {}, not running: nothing to verify", asked, status);
  auto state = parse_oci_state(captured.out);
  if (!state) return state.error().context(asked);
  if (state->id != query.id)
    return make_error("{}: the runtime answered for container '{}'", asked, one_line(state->id));
  return state;
}

}  // namespace graft
