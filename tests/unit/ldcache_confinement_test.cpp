// SPDX-License-Identifier: Apache-2.0
// What the confined ldconfig may not do, seen from outside and from inside:
// a device node the image plants behind a library name is never opened
// (watched with inotify), a static stand-in for ldconfig reports that the
// seccomp filter and the namespaces hold, the identity it runs as is one
// the container's user namespace maps, and on cgroup v1 it runs inside the
// container's devices cgroup. Needs root; skipped otherwise.
#include <catch2/catch.hpp>

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "cgroup_support.hpp"
#include "ldcache_support.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::ldcache_test;

namespace {

// Counts IN_OPEN events on one path while it lives.
class OpenWatch {
 public:
  explicit OpenWatch(const std::string& path) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    REQUIRE(fd_ >= 0);
    REQUIRE(::inotify_add_watch(fd_, path.c_str(), IN_OPEN | IN_DONT_FOLLOW) >= 0);
  }
  ~OpenWatch() { ::close(fd_); }
  int opens() const {
    alignas(inotify_event) char buffer[4096];
    int count = 0;
    for (ssize_t got; (got = ::read(fd_, buffer, sizeof buffer)) > 0;)
      for (ssize_t at = 0; at < got;) {
        auto* event = reinterpret_cast<inotify_event*>(buffer + at);
        count += (event->mask & IN_OPEN) != 0;
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    return count;
  }

 private:
  int fd_;
};

// A process in a user namespace of its own with the given maps, standing in
// for a container's init. Killed and reaped on destruction.
class UsernsProcess {
 public:
  UsernsProcess(const std::string& uid_map, const std::string& gid_map) {
    int ready[2], hold[2];
    REQUIRE(::pipe2(ready, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(hold, O_CLOEXEC) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      char byte = 0;
      if (::unshare(CLONE_NEWUSER) != 0) ::_exit(1);
      if (::write(ready[1], "r", 1) != 1) ::_exit(1);
      (void)!::read(hold[0], &byte, 1);  // until the test is done
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(hold[0]);
    hold_ = hold[1];
    char byte = 0;
    REQUIRE(::read(ready[0], &byte, 1) == 1);
    ::close(ready[0]);
    const std::string proc = "/proc/" + std::to_string(pid_);
    REQUIRE(cgroup_test::write_text(proc + "/uid_map", uid_map));
    REQUIRE(cgroup_test::write_text(proc + "/gid_map", gid_map));
  }
  ~UsernsProcess() {
    ::close(hold_);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  int hold_ = -1;
};

// prepare and apply with a container pid, the root owned by `owner`.
Status apply_for_pid(LoadedPlugin& plugin, Rootfs& rootfs, int pid, int owner = 0) {
  const Action action = ldcache_action();
  if (auto prepared = plugin.prepare(action, 7, ApplyTarget{.container_id = "c-ldcache", .pid = pid});
      !prepared.ok())
    return prepared;
  ApplyTarget target = rootfs.target(owner);
  target.pid = pid;
  return plugin.apply(action, 7, target);
}

std::string probe_config() { return json_config(GRAFT_CONFINED_PROBE); }

// The stand-in's report line: what follows "exited with status 3: ".
std::string report_of(const Status& status) {
  REQUIRE_FALSE(status.ok());
  const std::string& message = status.error().message;
  const std::string mark = "exited with status 3: ";
  const size_t at = message.find(mark);
  INFO(message);
  REQUIRE(at != std::string::npos);
  return message.substr(at + mark.size());
}

}  // namespace

TEST_CASE("A device node the image plants behind a library name is never opened by ldconfig",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs;
  // /dev/null's numbers: harmless to open, so the test observes rather than
  // risks; a watchdog's would be just as closed.
  const std::string node = rootfs.path("planted-node");
  REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0);
  make_symlink("/planted-node", rootfs.lib_dir() + "/libevil.so.1");
  const std::string named_node = rootfs.lib_dir() + "/libplanted.so.2";
  REQUIRE(::mknod(named_node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0);
  OpenWatch watch(node), named_watch(named_node);

  auto applied = prepare_and_apply(*load(), rootfs);
  INFO((applied.ok() ? std::string() : applied.error().message));
  REQUIRE(applied.ok());
  CHECK(watch.opens() == 0);
  CHECK(named_watch.opens() == 0);
  // The real library is still cached; the planted names are not.
  const std::string cache = rootfs.path("etc/ld.so.cache");
  CHECK(cached_path(cache, kSoname) == FakeHost::lib_dir() + "/" + kSoname);
  CHECK(cached_path(cache, "libevil.so.1").empty());
}

TEST_CASE("The confined child is denied mount and fork and keyrings and unshare and ptrace and "
          "device nodes and is pid 1 of its own namespace",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(cannot_run());
  Rootfs rootfs;
  const std::string node = rootfs.path("planted-node");
  REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0);
  auto applied = prepare_and_apply(*load(probe_config()), rootfs);
  CHECK(report_of(applied) ==
        "mount=EPERM fork=EPERM keyctl=EPERM unshare=EPERM ptrace=EPERM open_node=EACCES pid=1 "
        "uid=0 gid=0");
}

TEST_CASE("An image owner that the container's user namespace maps is who ldconfig runs as",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(cannot_run());
  UsernsProcess container("0 100000 65536", "0 100000 65536");
  Rootfs rootfs;
  auto applied = apply_for_pid(*load(probe_config()), rootfs, container.pid(), 100005);
  CHECK_THAT(report_of(applied), Catch::EndsWith("uid=100005 gid=100005"));
}

TEST_CASE("An image owner that the container's user namespace does not map is replaced by the "
          "container's root",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(cannot_run());
  UsernsProcess container("0 100000 65536", "0 100000 65536");
  Rootfs rootfs;  // owned by host root, which the map leaves out
  auto applied = apply_for_pid(*load(probe_config()), rootfs, container.pid(), 0);
  CHECK_THAT(report_of(applied), Catch::EndsWith("uid=100000 gid=100000"));
}

TEST_CASE("A container whose user namespace maps neither the image owner nor a root is refused",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(cannot_run());
  UsernsProcess container("1 100000 10", "1 100000 10");
  Rootfs rootfs;
  auto applied = apply_for_pid(*load(probe_config()), rootfs, container.pid(), 0);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith(rootfs.dir.path() +
                             ": the container root's owner 0:0 is not mapped by the container's "
                             "user namespace, which maps no root either: refusing to run "
                             "ldconfig as an id the container does not have"));
}

TEST_CASE("On cgroup v1 ldconfig runs inside the container's devices cgroup",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  const std::string devices = "/sys/fs/cgroup/devices";
  if (::access((devices + "/cgroup.procs").c_str(), W_OK) != 0) {
    GRAFT_SKIP("no writable cgroup v1 devices hierarchy at " << devices);
  }
  cgroup_test::ChildCgroup cgroup(devices);
  UsernsProcess container("0 0 4294967295", "0 0 4294967295");
  cgroup.add(container.pid());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/hang", kHangProbe);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/hang", 3000));
  std::atomic<bool> done{false};
  std::thread run([&] {
    (void)apply_for_pid(*plugin, rootfs, container.pid());
    done = true;
  });
  // The cgroup holds the container's process and, while it hangs, ldconfig.
  int most = 0;
  for (int i = 0; i < 250 && !done && most < 2; ++i) {
    std::ifstream procs(cgroup.path / "cgroup.procs");
    int count = 0;
    for (std::string line; std::getline(procs, line);) count += !line.empty();
    most = std::max(most, count);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  run.join();
  CHECK(most == 2);
}
