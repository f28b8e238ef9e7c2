// SPDX-License-Identifier: Apache-2.0
// The container's init behind a pidfd (core/src/apply/container_process.hpp):
// what graft reads under /proc/<pid>/ counts only while the pidfd's process
// still runs, and neither a hook nor `graft apply` ever applies into graft's
// own mount namespace. How a
// pid's cgroup names its container is cgroup_match_test.cpp's.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

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

TEST_CASE("A container process that shares graft's own mount namespace is refused",
          "[apply][pidfd]") {
  NamespaceId ns{.dev = 4, .ino = 4026531840};
  auto checked = check_mount_namespace(77, ns, ns);
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().message ==
        "container process 77 shares graft's own mount namespace, which no container does "
        "(a wrong or reused pid?): refusing to apply to the host");
}

TEST_CASE("A container process in a mount namespace of its own is accepted", "[apply][pidfd]") {
  CHECK(check_mount_namespace(77, {4, 1}, {4, 2}).ok());
}

TEST_CASE("A child of graft's that never left its mount namespace is refused", "[apply][pidfd]") {
  Child child;
  REQUIRE(child.pid > 0);
  auto process = ContainerProcess::open(child.pid);
  REQUIRE(process.ok());
  auto checked = check_not_own_mount_namespace(*process);
  REQUIRE_FALSE(checked.ok());
  CHECK_THAT(checked.error().message,
             Catch::StartsWith("container process " + std::to_string(child.pid) +
                               " shares graft's own mount namespace"));
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
