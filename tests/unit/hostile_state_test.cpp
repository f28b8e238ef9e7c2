// SPDX-License-Identifier: Apache-2.0
// Hostile and broken OCI requests through the real `graft hook` (state on
// stdin) and `graft plan --bundle`: each ends in one line and a non-zero
// exit, or a documented outcome, never a crash, a hang or a partial
// injection. docs/security.md, "Hostile requests and broken inputs", lists
// the decisions.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hook_harness.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

// No [plugins] dir that exists: a hook that gets as far as loading plugins fails.
const std::string& no_plugin_policy() {
  static std::string policy =
      write_policy("state-no-plugins", host().path("/no-plugins"));
  return policy;
}

std::string bundle_dir(const std::string& name) { return host().path("/state-bundles/" + name); }

std::string gpu_env() { return R"("NVIDIA_VISIBLE_DEVICES=0")"; }

void check_one_line_error(const testing::CommandResult& result, const std::string& expected) {
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(line_count(result.err) == 1);
  CHECK(result.err == "graft: " + expected + "\n");
}

struct PipeRun {
  int exit_code = -1;
  std::size_t written = 0;  // bytes the writer got into the pipe
  int write_errno = 0;      // why the writer stopped
  double seconds = 0;
  bool timed_out = false;
};

// Writes `total` bytes to graft's stdin through a pipe, as a runtime does,
// with SIGPIPE ignored as Go programs (runc, containerd) have it for pipes.
// Never blocks for more than 30 s: the pipe is non-blocking and polled.
PipeRun hook_through_pipe(const std::string& policy, std::size_t total) {
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[0], 0);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(GRAFT_BINARY, GRAFT_BINARY, "--policy", policy.c_str(), "hook", "prestart", nullptr);
    ::_exit(127);
  }
  ::close(fds[0]);
  ::fcntl(fds[1], F_SETFL, O_NONBLOCK);
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old);
  std::string chunk(1 << 16, ' ');
  PipeRun run;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (run.written < total) {
    pollfd pfd{fds[1], POLLOUT, 0};
    if (::poll(&pfd, 1, 1000) == 0) {
      if (elapsed() > 30) {
        run.timed_out = true;
        break;
      }
      continue;
    }
    ssize_t wrote = ::write(fds[1], chunk.data(), std::min(chunk.size(), total - run.written));
    if (wrote < 0 && errno == EAGAIN) continue;
    if (wrote < 0) {
      run.write_errno = errno;
      break;
    }
    run.written += static_cast<std::size_t>(wrote);
  }
  ::close(fds[1]);
  ::sigaction(SIGPIPE, &old, nullptr);
  if (run.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.seconds = elapsed();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

}  // namespace

TEST_CASE("state on stdin that is not JSON is one line and exit 1", "[hook][hostile]") {
  check_one_line_error(hook(no_plugin_policy(), "runc was here"),
                       "OCI state on stdin is not a JSON object");
}

TEST_CASE("truncated state on stdin is one line and exit 1", "[hook][hostile]") {
  std::string state = state_json("c9", ::getpid(), bundle_dir("x"));
  check_one_line_error(hook(no_plugin_policy(), state.substr(0, state.size() / 2)),
                       "OCI state on stdin is not a JSON object");
}

TEST_CASE("empty stdin is one line and exit 1", "[hook][hostile]") {
  check_one_line_error(hook(no_plugin_policy(), ""), "OCI state on stdin is not a JSON object");
}

TEST_CASE("100 MiB on stdin stops reading at 1 MiB, exits 1 at once, and the writer gets EPIPE",
          "[hook][hostile]") {
  auto run = hook_through_pipe(no_plugin_policy(), std::size_t{100} << 20);
  CHECK_FALSE(run.timed_out);
  CHECK(run.exit_code == 1);
  // graft read at most 1 MiB + one 16 KiB read; the rest the writer got in
  // is what the pipe buffer (64 KiB by default, up to 1 MiB) held.
  CHECK(run.written <= (std::size_t{2} << 20) + (64u << 10));
  CHECK(run.write_errno == EPIPE);
  CHECK(run.seconds < 10);
}

TEST_CASE("100 MiB on stdin is refused with the cap in the message", "[hook][hostile]") {
  // Through a file, so the whole stream is there and only graft's cap stops it.
  check_one_line_error(hook(no_plugin_policy(), std::string(std::size_t{100} << 20, '{')),
                       "OCI state on stdin is larger than 1048576 bytes");
}

TEST_CASE("a state without pid is one line naming the container and exit 1", "[hook][hostile]") {
  std::string state = nlohmann::json({{"id", "c9"}, {"bundle", bundle_dir("x")}}).dump();
  check_one_line_error(hook(no_plugin_policy(), state),
                       "OCI state for c9: \"pid\" must be a positive process id");
}

TEST_CASE("pid 0 is refused, not guessed", "[hook][hostile]") {
  std::string bundle = write_bundle(bundle_dir("pid0"), {gpu_env()});
  check_one_line_error(hook(no_plugin_policy(), state_json("c9", 0, bundle), "createRuntime"),
                       "OCI state for c9: \"pid\" must be a positive process id");
}

TEST_CASE("graft hook createContainer is refused with one line naming prestart and createRuntime",
          "[hook][hostile]") {
  std::string bundle = write_bundle(bundle_dir("create-container"), {gpu_env()});
  check_one_line_error(
      hook(no_plugin_policy(), state_json("c9", ::getpid(), bundle), "createContainer"),
      "hook createContainer is refused: that hook runs inside the container's namespaces (its "
      "/proc and pid are the container's), where graft cannot check what it enters; use "
      "prestart or createRuntime");
}

TEST_CASE("a pid that shares graft's own mount namespace is refused, and nothing is applied "
          "to the host",
          "[hook][hostile]") {
  if (!host().device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  // A plain child of the test: it shares the test's (the host's) mount
  // namespace, as a recycled pid would. graft once skipped setns for it and
  // applied the plan to the host.
  pid_t sleeper = ::fork();
  if (sleeper == 0) {
    ::execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  PluginDir plugins("cgroup");  // a stand-in that does nothing: the host's cgroups stay untouched
  std::string policy = write_policy("state-own-ns", plugins.path());
  std::string bundle = write_bundle(bundle_dir("own-ns"), {gpu_env()});
  auto result = hook(policy, state_json("c9", sleeper, bundle));
  ::kill(sleeper, SIGKILL);
  ::waitpid(sleeper, nullptr, 0);
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK(result.err == "graft: container c9: container process " + std::to_string(sleeper) +
                          " shares graft's own mount namespace, which no container does (a wrong "
                          "or reused pid?): refusing to apply to the host\n");
  CHECK(host_has_no_mount_under(bundle));
  CHECK_FALSE(fs::exists(bundle + "/rootfs/dev/nvidia0"));
}

TEST_CASE("the pid of a process that has exited fails before anything is applied",
          "[hook][hostile]") {
  if (!host().device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  PluginDir plugins("cgroup");  // a stand-in that does nothing: the host's cgroups stay untouched
  std::string policy = write_policy("state-exited", plugins.path());
  std::string bundle = write_bundle(bundle_dir("exited"), {gpu_env()});
  auto result = hook(policy, state_json("c9", gone, bundle));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK(result.err == "graft: container c9: container process " + std::to_string(gone) +
                          ": no such process (exited?)\n");
  CHECK(host_has_no_mount_under(bundle));
}

TEST_CASE("a bundle path that does not exist is one line naming config.json", "[hook][hostile]") {
  std::string bundle = host().path("/state-bundles/absent");
  check_one_line_error(hook(no_plugin_policy(), state_json("c9", ::getpid(), bundle)),
                       "container c9: " + bundle + "/config.json: No such file or directory");
}

TEST_CASE("a bundle that is a symlink is followed and plans like its target", "[hook][hostile]") {
  std::string real = write_bundle(bundle_dir("real"), {gpu_env()});
  std::string link = bundle_dir("link");
  fs::remove(link);
  fs::create_directory_symlink(real, link);
  std::string policy = write_policy("state-symlink", "");
  auto through_link = testing::run_graft({"--policy", policy, "plan", "--format", "json", "--bundle", link});
  auto direct = testing::run_graft({"--policy", policy, "plan", "--format", "json", "--bundle", real});
  INFO(through_link.err);
  REQUIRE(through_link.exit_code == direct.exit_code);
  if (direct.exit_code != 0) return;  // no device nodes (not root): nothing to compare
  CHECK(nlohmann::json::parse(through_link.out)["actions"] == nlohmann::json::parse(direct.out)["actions"]);
  // And a hook given the link as its bundle reads the same config.json.
  std::string plain = write_bundle(bundle_dir("plain-real"), {R"("PATH=/bin")"});
  std::string plain_link = bundle_dir("plain-link");
  fs::remove(plain_link);
  fs::create_directory_symlink(plain, plain_link);
  auto hooked = hook(no_plugin_policy(), state_json("c9", ::getpid(), plain_link));
  CHECK(hooked.exit_code == 0);
  CHECK(hooked.err.empty());
}

TEST_CASE("a malformed config.json is one line naming it and exit 1", "[hook][hostile]") {
  std::string bundle = bundle_dir("malformed");
  fs::create_directories(bundle);
  std::ofstream(bundle + "/config.json") << R"({"ociVersion":"1.0.2","root":{"path":"rootfs"},"process":{"env":[)";
  check_one_line_error(hook(no_plugin_policy(), state_json("c9", ::getpid(), bundle)),
                       "container c9: " + bundle + "/config.json: not valid JSON");
}

TEST_CASE("a config.json without root is one line naming it and exit 1", "[hook][hostile]") {
  std::string bundle = bundle_dir("no-root");
  fs::create_directories(bundle);
  std::ofstream(bundle + "/config.json") << R"({"ociVersion":"1.0.2","process":{"env":["NVIDIA_VISIBLE_DEVICES=0"]}})";
  check_one_line_error(hook(no_plugin_policy(), state_json("c9", ::getpid(), bundle)),
                       "container c9: " + bundle + "/config.json: root.path: missing");
}

TEST_CASE("a config.json with 100k env entries plans in seconds with the same result",
          "[hook][hostile]") {
  std::vector<std::string> env;
  for (int i = 0; i < 100000; ++i) env.push_back("\"VAR_" + std::to_string(i) + "=value\"");
  env.push_back(gpu_env());
  std::string bundle = write_bundle(bundle_dir("env-100k"), env);
  std::string policy = write_policy("state-env", "");
  auto start = std::chrono::steady_clock::now();
  auto result = testing::run_graft({"--policy", policy, "plan", "--format", "json", "--bundle", bundle});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(result.err);
  CHECK(seconds < 20);
  if (!host().device_nodes_created()) {
    CHECK(result.exit_code == 1);  // the granted GPU's node is missing without root
    return;
  }
  REQUIRE(result.exit_code == 0);
  CHECK(nlohmann::json::parse(result.out)["decisions"]["granted"]["devices"].size() == 1);
  // A container without a GPU request and the same env is left alone at once.
  env.pop_back();
  std::string plain = write_bundle(bundle_dir("env-100k-plain"), env);
  auto hooked = hook(no_plugin_policy(), state_json("c9", ::getpid(), plain));
  CHECK(hooked.exit_code == 0);
  CHECK(hooked.err.empty());
}

TEST_CASE("1 MiB env values and annotations are read whole and decided like short ones",
          "[hook][hostile]") {
  std::string big(1u << 20, 'x');
  std::vector<std::string> env;
  for (int i = 0; i < 8; ++i) env.push_back("\"BIG_" + std::to_string(i) + "=" + big + "\"");
  env.push_back("\"NVIDIA_DRIVER_CAPABILITIES=" + big + "\"");  // one unsupported name, 1 MiB long
  env.push_back(gpu_env());
  std::string bundle = write_bundle(bundle_dir("env-1mib"), env,
                                    R"(,"annotations":{"org.example/big":")" + big + "\"}");
  std::string policy = write_policy("state-env", "");
  auto result = testing::run_graft({"--policy", policy, "plan", "--bundle", bundle});
  INFO(result.err.substr(0, 400));
  CHECK(result.exit_code == 3);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("refused: unsupported capability 'xxxx"));
  // The hook refuses the same way, before loading any plugin.
  auto hooked = hook(no_plugin_policy(), state_json("c9", ::getpid(), bundle));
  CHECK(hooked.exit_code == 3);
  CHECK(line_count(hooked.err) == 1);
  CHECK_THAT(hooked.err, Catch::StartsWith("graft: container c9 refused: unsupported capability"));
}

TEST_CASE("an error naming a container id with a newline stays one line", "[hook][hostile]") {
  std::string bundle = host().path("/state-bundles/absent");
  check_one_line_error(hook(no_plugin_policy(), state_json("c\n9", ::getpid(), bundle)),
                       "container c\\n9: " + bundle + "/config.json: No such file or directory");
}
