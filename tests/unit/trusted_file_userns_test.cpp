// SPDX-License-Identifier: Apache-2.0
// Trusted files seen from inside a user namespace (docs/security.md, "Trusted
// files in a user namespace"), with the real kernel: `graft policy show`
// runs as root of a namespace whose uid map the test writes, as rootless
// podman's hooks do. Host root and every user the map leaves out show there
// as the overflow uid; an owner the namespace maps (a container's user) must
// never be trusted, even when it is the one mapped to that same uid.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sched.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "fixture_files.hpp"
#include "policy_support.hpp"
#include "run_command.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using graft::policy_test::PolicyFiles;
using graft::testing::CommandResult;

namespace {

constexpr const char* kUsernsPolicy = "[host]\ndriver_root = \"/\"\n";
constexpr int kNoUserNamespace = 77;

// The host user whose namespaces these are.
constexpr uid_t kUser = 4243;
// As rootless podman maps a user: itself to root, then its subordinate range.
constexpr const char* kRootlessMap = "0 4243 1\n1 200000 65536\n";
// Only the user itself: the overflow uid is not mapped.
constexpr const char* kSingleMap = "0 4243 1\n";

// Writes `map` as the uid and gid map of `pid` (a child in a new user namespace).
bool write_maps(pid_t pid, const std::string& map) {
  for (const char* file : {"uid_map", "gid_map"}) {
    std::ofstream out("/proc/" + std::to_string(pid) + "/" + file);
    out << map;
    out.flush();
    if (!out) return false;
  }
  return true;
}

// The two pipes between the test and its child: `unshared` (child to test)
// says the child is in its new namespace, `mapped` (test to child) that its
// maps are written. Each end a side does not use is closed at once, so a
// side that dies ends the other's read.
struct Handshake {
  int unshared[2] = {-1, -1};
  int mapped[2] = {-1, -1};
};

// The child: output to the files, host uid and gid `user` (whom the map
// makes the namespace's root, as rootless podman's map does the user who
// runs it), a new user namespace, then `argv` once its map is written.
// Allocates nothing after fork.
[[noreturn]] void run_child(const Handshake& pipes, const std::string& out, const std::string& err,
                            uid_t user, char** argv) {
  ::close(pipes.unshared[0]);
  ::close(pipes.mapped[1]);
  int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0 || err_fd < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(126);
  if (user != 0 && (::setgroups(0, nullptr) != 0 || ::setresgid(user, user, user) != 0 ||
                    ::setresuid(user, user, user) != 0))
    ::_exit(126);
  if (::unshare(CLONE_NEWUSER) != 0) ::_exit(kNoUserNamespace);
  char byte = 'u';
  if (::write(pipes.unshared[1], &byte, 1) != 1 || ::read(pipes.mapped[0], &byte, 1) != 1) ::_exit(126);
  ::execv(argv[0], argv);
  ::_exit(127);
}

// The test's side: waits for the child to unshare, writes `map`, lets it go.
void map_child(const Handshake& pipes, pid_t pid, const std::string& map) {
  ::close(pipes.unshared[1]);
  ::close(pipes.mapped[0]);
  char byte = 0;
  if (::read(pipes.unshared[0], &byte, 1) == 1 && write_maps(pid, map))
    (void)!::write(pipes.mapped[1], "m", 1);
  ::close(pipes.unshared[0]);
  ::close(pipes.mapped[1]);  // a child still waiting then reads end of file and exits
}

// `graft --policy POLICY policy show` as root of a new user namespace with
// uid and gid map `map`, which maps host uid `user` to 0; exit code
// kNoUserNamespace when none can be made.
CommandResult graft_in_user_namespace(const std::string& map, const std::string& policy,
                                      uid_t user = kUser) {
  graft::fixture::TempDir dir("graft-userns-");
  std::string out = dir.path() + "/out", err = dir.path() + "/err";
  std::vector<std::string> args{GRAFT_BINARY, "--policy", policy, "policy", "show"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  Handshake pipes;
  REQUIRE(::pipe2(pipes.unshared, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(pipes.mapped, O_CLOEXEC) == 0);
  pid_t pid = ::fork();
  if (pid == 0) run_child(pipes, out, err, user, argv.data());
  map_child(pipes, pid, map);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = graft::fixture::read_file(out);
  result.err = graft::fixture::read_file(err);
  return result;
}

// A policy host root owns in a directory others may enter (so a user of the
// namespace can reach it); `owner` chowns it away from root.
std::string reachable_policy(const PolicyFiles& files, uid_t owner = 0) {
  std::string path = files.write("graft.toml", kUsernsPolicy);
  REQUIRE(::chmod(files.path("").c_str(), 0755) == 0);
  REQUIRE(::chown(path.c_str(), owner, owner) == 0);
  return path;
}

// Why these cases cannot run here, "" when they can.
std::string userns_skip_reason() {
  if (::geteuid() != 0) return "writing another user's uid map needs root";
  PolicyFiles files;
  auto probe = graft_in_user_namespace(kSingleMap, reachable_policy(files));
  if (probe.exit_code == kNoUserNamespace) return "no user namespace can be made here";
  return "";
}

}  // namespace

TEST_CASE("In a user namespace that does not map host root, a policy host root owns loads",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  auto result = graft_in_user_namespace(kSingleMap, reachable_policy(files));
  INFO(result.err);
  CHECK(result.exit_code == 0);
}

TEST_CASE("In a user namespace mapped as rootless podman maps it, where the overflow uid is also "
          "a container's user, a policy host root owns loads",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  auto result = graft_in_user_namespace(kRootlessMap, reachable_policy(files));
  INFO(result.err);
  CHECK(result.exit_code == 0);
}

TEST_CASE("In a user namespace, a policy owned by the container user mapped to the overflow uid "
          "is refused, though it looks like host root's",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  // Inside 65534 is host 200000 + 65533 in kRootlessMap.
  std::string path = reachable_policy(files, 265533);
  auto result = graft_in_user_namespace(kRootlessMap, path);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(path + ": owned by uid 65534, neither root nor us"));
}

TEST_CASE("In a user namespace, a policy owned by a mapped user other than its root is refused",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  std::string path = reachable_policy(files, 200005);  // inside uid 6
  auto result = graft_in_user_namespace(kRootlessMap, path);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(path + ": owned by uid 6, neither root nor us"));
}

TEST_CASE("In a user namespace that maps host root, a policy owned by a user it does not map is "
          "refused: that owner is certainly not root",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  std::string path = reachable_policy(files, 4242);
  auto result = graft_in_user_namespace("0 0 1\n", path, 0);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(path + ": owned by uid 65534, neither root nor us"));
}

TEST_CASE("In a user namespace, a policy host root owns is still refused when group-writable",
          "[policy][trusted][userns]") {
  GRAFT_SKIP_IF(userns_skip_reason());
  PolicyFiles files;
  std::string path = reachable_policy(files);
  REQUIRE(::chmod(path.c_str(), 0664) == 0);
  auto result = graft_in_user_namespace(kRootlessMap, path);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(path + ": the file is group- or world-writable (mode 664)"));
}
