// The container's init behind a pidfd (core/src/apply/container_process.hpp)
// and the cgroup check of `graft apply --pid` (cgroup_match.hpp): what
// graft reads under /proc/<pid>/ counts only while the pidfd's process still
// runs, a hook never applies into its own mount namespace, and a pid is the
// named container's only when its cgroup says so.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "apply/cgroup_match.hpp"
#include "apply/container_process.hpp"

using namespace graft;

namespace {

// A child that waits to be killed; killed (and reaped) at the latest here.
struct Child {
  pid_t pid = ::fork();
  Child() {
    if (pid == 0) {
      for (;;) ::pause();
    }
  }
  void kill_and_reap() {
    if (pid <= 0) return;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pid = -1;
  }
  ~Child() { kill_and_reap(); }
};

}  // namespace

TEST_CASE("A hook refuses a container process that shares graft's own mount namespace",
          "[apply][pidfd]") {
  NamespaceId ns{.dev = 4, .ino = 4026531840};
  auto checked = check_mount_namespace(77, ns, ns, ApplyCaller::hook);
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().message ==
        "container process 77 shares graft's own mount namespace, which no container does "
        "(a wrong or reused pid?): refusing to apply to the host");
}

TEST_CASE("A hook accepts a container process in a mount namespace of its own", "[apply][pidfd]") {
  CHECK(check_mount_namespace(77, {4, 1}, {4, 2}, ApplyCaller::hook).ok());
}

TEST_CASE("graft apply enters a process's mount namespace even when it is graft's own",
          "[apply][pidfd]") {
  CHECK(check_mount_namespace(77, {4, 1}, {4, 1}, ApplyCaller::apply).ok());
}

TEST_CASE("What is read about a running container process is confirmed and returned",
          "[apply][pidfd]") {
  Child child;
  REQUIRE(child.pid > 0);
  auto process = ContainerProcess::open(child.pid);
  REQUIRE(process.ok());
  auto cgroup = process->read_proc("cgroup", "its cgroup");
  REQUIRE(cgroup.ok());
  CHECK_THAT(*cgroup, Catch::StartsWith("0::") || Catch::Contains(":devices:") ||
                          Catch::Contains(":/"));
  CHECK(process->mount_namespace().ok());
}

TEST_CASE("A container process that exits while graft reads about it is refused, not believed",
          "[apply][pidfd]") {
  Child child;
  REQUIRE(child.pid > 0);
  const int pid = child.pid;
  auto process = ContainerProcess::open(pid);
  REQUIRE(process.ok());
  // The read succeeds, but by the time it returns the process is gone: the
  // pid may already name another process, so what was read cannot count.
  auto read = process->confirmed("its cgroup", [&]() -> Result<std::string> {
    child.kill_and_reap();
    return std::string("0::/some/other/process\n");
  });
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message ==
        "container process " + std::to_string(pid) + " exited while graft read its cgroup");
}

TEST_CASE("A container process that has exited but is not yet reaped counts as exited",
          "[apply][pidfd]") {
  Child child;
  REQUIRE(child.pid > 0);
  auto process = ContainerProcess::open(child.pid);
  REQUIRE(process.ok());
  CHECK(process->running());
  ::kill(child.pid, SIGKILL);
  siginfo_t info{};
  REQUIRE(::waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOWAIT) == 0);
  CHECK_FALSE(process->running());  // a zombie: pidfd_send_signal(0) would still succeed
  CHECK_FALSE(process->read_proc("cgroup", "its cgroup").ok());
}

TEST_CASE("A pid whose process has exited is refused before anything is read", "[apply][pidfd]") {
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  auto process = ContainerProcess::open(gone);
  REQUIRE_FALSE(process.ok());
  CHECK(process.error().message ==
        "container process " + std::to_string(gone) + ": no such process (exited?)");
}

TEST_CASE("The cgroup names of runc, crun, containerd, podman, docker and LXC name their container",
          "[apply][pidfd]") {
  CHECK(cgroup_names_container("0::/graft-apply-1234\n", "graft-apply-1234"));
  CHECK(cgroup_names_container("0::/system.slice/runc-c1a2.scope\n", "c1a2"));
  CHECK(cgroup_names_container("0::/machine.slice/libpod-3f2a9c.scope/container\n", "3f2a9c"));
  CHECK(cgroup_names_container("0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-ab12.scope\n",
                               "ab12"));
  CHECK(cgroup_names_container("12:devices:/docker/9e8d\n0::/docker/9e8d\n", "9e8d"));
  CHECK(cgroup_names_container("0::/lxc.payload.web1\n", "web1"));
}

TEST_CASE("A cgroup that merely contains the id inside a longer name does not name the container",
          "[apply][pidfd]") {
  CHECK_FALSE(cgroup_names_container("0::/system.slice/runc-abcd.scope\n", "abc"));
  CHECK_FALSE(cgroup_names_container("0::/user.slice/user-0.slice/session-3.scope\n", "c1"));
  CHECK_FALSE(cgroup_names_container("0::/\n", "c1"));
  CHECK_FALSE(cgroup_names_container("0::/c1\n", ""));
}
