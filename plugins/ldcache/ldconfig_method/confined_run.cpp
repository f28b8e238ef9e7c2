// SPDX-License-Identifier: Apache-2.0
// run_confined: clone3 the child into its namespaces and the container's
// cgroup, confine it step by step, execveat the sealed binary; the parent
// reads the child's stderr and waits with a deadline.
//
// Between clone and exec the child calls only system calls (and
// strerrordesc_np, a table lookup): everything it needs (argv, envp, the
// seccomp program) is built before clone, so no allocation happens in a
// process that may have been forked from a multi-threaded one.
#include "confined_run.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string_view>

#include "child_seccomp.hpp"
#include "graft/base/unique_fd.hpp"

#ifndef SECBIT_NOROOT
#include <linux/securebits.h>
#endif

namespace graft::ldcache {
namespace {

constexpr int kSetupFailedExit = 125;  // the child failed before exec
constexpr size_t kMaxStderr = 4096;    // kept of the child's stderr; the rest is drained
constexpr int kExeFd = 3;              // where the sealed binary sits for execveat

// What the child needs, prepared before fork.
struct ChildPlan {
  const ConfinedCommand* command;
  char* const* argv;
  const std::vector<sock_filter>* filter;
  int err_fd;     // write end of the stderr pipe
  int go_read;    // the parent writes one byte once the child is in its cgroup
  int go_write;   // the parent's end, closed by the child so graft's death reads as EOF
};

// --- child side: async-signal-safe only ---------------------------------

void put(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t put = ::write(fd, text.data(), text.size());
    if (put <= 0) return;
    text.remove_prefix(static_cast<size_t>(put));
  }
}

[[noreturn]] void die(int err_fd, const char* step) {
  const char* reason = ::strerrordesc_np(errno);
  put(err_fd, "graft: ");
  put(err_fd, step);
  put(err_fd, ": ");
  put(err_fd, reason != nullptr ? reason : "unknown error");
  put(err_fd, "\n");
  ::_exit(kSetupFailedExit);
}

// A read-only empty tmpfs over `path` if it is a directory. In this private
// mount namespace it hides proc and sysfs: /proc/<pid>/root and friends are
// ways out of a chroot. (They need ptrace access too, which a process without
// capabilities lacks over every privileged one; this is the second lock.)
void mask_dir(int err_fd, const char* path) {
  struct stat st {};
  if (::lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return;
  if (::mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
              "mode=0555,size=4k") != 0)
    die(err_fd, "masking /proc or /sys");
}

// The child's own copy of the whole tree below the cwd (the root and every
// mount under it, the container's /dev included), made nodev, nosuid and
// noexec and mounted over the cwd, which then moves onto it. nodev is what
// keeps ldconfig from opening a device node the image planted behind a
// library name (it fopen()s every lib*.so* it finds): open(2) of any device
// fails with EACCES before a driver sees it. noexec does not stop reading
// or PROT_READ mappings, which is all ldconfig does with a library.
void enter_private_copy(int err_fd) {
  int tree = static_cast<int>(
      ::syscall(SYS_open_tree, AT_FDCWD, ".", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE));
  if (tree < 0) die(err_fd, "open_tree of the container root");
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC;
  attr.propagation = MS_PRIVATE;
  if (::syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) != 0)
    die(err_fd, "making the container root nodev,nosuid,noexec");
  if (::syscall(SYS_move_mount, tree, "", AT_FDCWD, ".", MOVE_MOUNT_F_EMPTY_PATH) != 0)
    die(err_fd, "mounting the private copy of the container root");
  if (::fchdir(tree) != 0) die(err_fd, "fchdir to the private copy");
  ::close(tree);
}

// Private mount namespace first, so nothing below (the copy, the masks) is
// seen by the container; then chroot into the copy of the root: every path
// ldconfig resolves, symlinks in the image included, stays inside it. The
// fchdir comes before the unshare: unshare moves the cwd to its copy in the
// new namespace, while root_fd keeps pointing into the old one, where
// mount() fails with EINVAL.
void enter_root(const ChildPlan& plan) {
  if (::fchdir(plan.command->root_fd) != 0) die(plan.err_fd, "fchdir to the container root");
  if (::unshare(CLONE_NEWNS) != 0) die(plan.err_fd, "unshare(CLONE_NEWNS)");
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    die(plan.err_fd, "making / private");
  enter_private_copy(plan.err_fd);
  if (::chroot(".") != 0) die(plan.err_fd, "chroot into the container root");
  if (::chdir("/") != 0) die(plan.err_fd, "chdir /");
  mask_dir(plan.err_fd, "/proc");
  mask_dir(plan.err_fd, "/sys");
}

// stdin: an empty pipe (EOF); stdout and stderr: the stderr pipe; fd 3: the
// sealed binary (close-on-exec: execveat of an ELF does not need it after);
// nothing else, so no fd leads back out of the chroot.
void arrange_fds(const ChildPlan& plan) {
  int err = ::fcntl(plan.err_fd, F_DUPFD_CLOEXEC, 10);
  int exe = ::fcntl(plan.command->exe_fd, F_DUPFD_CLOEXEC, 10);
  int in[2];  // not close-on-exec: in[0] may already be fd 0, where dup2 changes nothing
  if (err < 0 || exe < 0 || ::pipe2(in, 0) != 0) die(plan.err_fd, "arranging fds");
  ::close(in[1]);
  if (::dup2(in[0], 0) < 0 || ::dup2(err, 1) < 0 || ::dup2(err, 2) < 0 ||
      ::dup3(exe, kExeFd, O_CLOEXEC) < 0)
    die(err, "arranging fds");
  if (::syscall(SYS_close_range, kExeFd + 1, ~0U, 0) != 0) die(2, "close_range");
}

// The rootfs owner's identity when it is not root, as libnvidia-container
// does, so a rootless container's /etc is writable without CAP_DAC_OVERRIDE.
void take_identity(const ConfinedCommand& command) {
  if (command.uid == 0 && command.gid == 0) return;
  if (::setgroups(0, nullptr) != 0) die(2, "setgroups");
  if (::setresgid(command.gid, command.gid, command.gid) != 0) die(2, "setresgid");
  if (::setresuid(command.uid, command.uid, command.uid) != 0) die(2, "setresuid");
}

void limit(int resource, rlim_t value, const char* step) {
  const rlimit limit{value, value};
  if (::setrlimit(resource, &limit) != 0) die(2, step);
}

// Set after take_identity: RLIMIT_NPROC is checked against the real uid's
// process count, and setresuid under a low limit would make execve fail.
void set_limits(const ConfinedCommand& command) {
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(command.timeout).count();
  limit(RLIMIT_CPU, static_cast<rlim_t>(seconds < 1 ? 1 : seconds), "RLIMIT_CPU");  // backstop
  limit(RLIMIT_AS, rlim_t{2} << 30, "RLIMIT_AS");        // ldconfig maps libraries to read them
  limit(RLIMIT_FSIZE, rlim_t{64} << 20, "RLIMIT_FSIZE");  // a cache is well under 1 MiB
  limit(RLIMIT_NOFILE, 64, "RLIMIT_NOFILE");             // a few directories and files at a time
  limit(RLIMIT_CORE, 0, "RLIMIT_CORE");  // a core of it must not land in the image
  // NPROC counts every process of the real uid, so 0 stops a non-root
  // identity from forking. It does not bind uid 0 (the kernel exempts the
  // initial namespace's root from it); the seccomp filter, which denies
  // fork, vfork, clone and clone3 to every identity, is what does.
  limit(RLIMIT_NPROC, 0, "RLIMIT_NPROC");
}

// No capability in any set, none that can come back: the bounding set is
// emptied (needs CAP_SETPCAP, so first), securebits stop execve from handing
// root its capabilities again, no_new_privs stops setuid files. uid 0 stays,
// which is enough to write root-owned files in the image's /etc.
void drop_privileges(const ConfinedCommand& command) {
  const unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                             SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
  if (::prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) die(2, "PR_SET_SECUREBITS");
  for (unsigned long cap = 0; cap <= 63; ++cap) {
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
      die(2, "PR_CAPBSET_DROP");
  }
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) die(2, "clearing ambient");
  take_identity(command);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capset, &header, data) != 0) die(2, "capset");
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die(2, "PR_SET_NO_NEW_PRIVS");
}

// Waits for the parent's go: it comes once the parent has put the child in
// the container's devices cgroup (v1), and EOF instead means graft is gone
// (its own deadline passing right after clone) before the death signal
// below was armed. getppid() cannot tell: in a new pid namespace it is 0.
void wait_for_go(const ChildPlan& plan) {
  ::close(plan.go_write);
  char go = 0;
  ssize_t got;
  do {
    got = ::read(plan.go_read, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) ::_exit(2);
  ::close(plan.go_read);
}

[[noreturn]] void child_main(const ChildPlan& plan) {
  // Die with graft: an orphaned ldconfig would outlive its deadline.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  wait_for_go(plan);
  enter_root(plan);
  arrange_fds(plan);
  drop_privileges(*plan.command);
  set_limits(*plan.command);
  // Last, after every mount and prctl above that it denies.
  if (install_child_filter(*plan.filter) != 0) die(2, "installing the seccomp filter");
  char* const empty_env[] = {nullptr};
  ::syscall(SYS_execveat, kExeFd, "", plan.argv, empty_env, AT_EMPTY_PATH);
  die(2, "execveat of the sealed binary");
}

// --- parent side ----------------------------------------------------------

struct Ending {
  bool timed_out = false;
  siginfo_t info{};
  std::string stderr_text;
};

void read_available(int fd, std::string& into, bool& open) {
  char buffer[1024];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) open = false;
    if (got <= 0) return;
    size_t room = kMaxStderr - std::min(into.size(), kMaxStderr);
    into.append(buffer, std::min(room, static_cast<size_t>(got)));
  }
}

// Polls the pidfd and the (non-blocking) stderr pipe until the child exits
// or the deadline passes; a late child is killed. Always reaps the child.
Result<Ending> wait_for(pid_t pid, int pidfd, int err_fd, std::chrono::milliseconds timeout) {
  Ending ending;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool pipe_open = true, exited = false;
  while (!exited) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ending.timed_out = true;
      ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
      break;
    }
    pollfd fds[2] = {{pidfd, POLLIN, 0}, {pipe_open ? err_fd : -1, POLLIN, 0}};
    int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), INT_MAX)));
    if (ready < 0 && errno != EINTR) return make_sys_error(errno, "poll");
    if (fds[1].revents != 0) read_available(err_fd, ending.stderr_text, pipe_open);
    exited = (fds[0].revents & POLLIN) != 0;
  }
  if (::waitid(P_PID, static_cast<id_t>(pid), &ending.info, WEXITED) != 0)
    return make_sys_error(errno, "waitid");
  if (pipe_open) read_available(err_fd, ending.stderr_text, pipe_open);
  return ending;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line.empty() ? "no error output" : line;
}

Status describe(const Ending& ending, const ConfinedCommand& command) {
  const std::string who = fmt::format("{} in container root {}", command.argv.at(0),
                                      command.root_name);
  if (ending.timed_out)
    return make_error("{} did not finish within {} ms and was killed: {}", who,
                      command.timeout.count(), first_line(ending.stderr_text));
  if (ending.info.si_code == CLD_EXITED && ending.info.si_status == 0) return ok_status();
  if (ending.info.si_code == CLD_EXITED)
    return make_error("{} exited with status {}: {}", who, ending.info.si_status,
                      first_line(ending.stderr_text));
  const char* name = ::sigabbrev_np(ending.info.si_status);
  return make_error("{} was killed by signal {} (SIG{}): {}", who, ending.info.si_status,
                    name != nullptr ? name : "?", first_line(ending.stderr_text));
}

// The child: new pid, network and IPC namespaces (it sees no process, socket
// or IPC object of the host or the container; it is pid 1 of its own
// namespace), a pidfd, and on cgroup v2 its birth inside the container's
// cgroup, so the runtime's device program covers it from the first
// instruction. The mount namespace comes later, in the child (enter_root).
pid_t clone_child(const ConfinedCommand& command, int& pidfd) {
  clone_args args{};
  args.flags = CLONE_PIDFD | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC;
  args.pidfd = reinterpret_cast<std::uint64_t>(&pidfd);
  args.exit_signal = SIGCHLD;
  if (command.cgroup_dir_fd >= 0) {
    args.flags |= CLONE_INTO_CGROUP;
    args.cgroup = static_cast<std::uint64_t>(command.cgroup_dir_fd);
  }
  return static_cast<pid_t>(::syscall(SYS_clone3, &args, sizeof args));
}

// cgroup v1: the child waits for its go until it is in the container's
// devices cgroup, before it touches the root.
Status join_v1_cgroup(const ConfinedCommand& command, pid_t pid) {
  if (command.cgroup_procs_fd < 0) return ok_status();
  const std::string text = std::to_string(pid);
  if (::write(command.cgroup_procs_fd, text.data(), text.size()) !=
      static_cast<ssize_t>(text.size()))
    return make_sys_error(errno, "moving {} into the container's devices cgroup {}",
                      command.argv.at(0), command.cgroup_name);
  return ok_status();
}

}  // namespace

Status run_confined(const ConfinedCommand& command) {
  if (command.argv.empty()) return make_error("run_confined: empty argv");
  std::vector<std::string> args = command.argv;  // execve wants char* const*
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::vector<sock_filter> filter = child_filter();
  if (filter.empty()) return make_error("run_confined: no seccomp filter for this architecture");

  int pipe_fds[2], go_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return make_sys_error(errno, "pipe2");
  UniqueFd err_read(pipe_fds[0]), err_write(pipe_fds[1]);
  if (::pipe2(go_fds, O_CLOEXEC) != 0) return make_sys_error(errno, "pipe2");
  UniqueFd go_read(go_fds[0]), go_write(go_fds[1]);
  // Only the parent's end is non-blocking; the flag is per end.
  ::fcntl(err_read.get(), F_SETFL, O_NONBLOCK);

  const ChildPlan plan{&command, argv.data(), &filter, err_write.get(), go_read.get(),
                       go_write.get()};
  int raw_pidfd = -1;
  pid_t pid = clone_child(command, raw_pidfd);
  if (pid < 0)
    return make_sys_error(errno, "clone3 of {} {}", command.argv.at(0),
                      command.cgroup_dir_fd >= 0
                          ? "into the container's cgroup " + command.cgroup_name
                          : std::string("into its namespaces"));
  if (pid == 0) child_main(plan);
  UniqueFd pidfd(raw_pidfd);
  err_write.reset();  // EOF on the pipe once the child and its exec are done
  go_read.reset();

  Status joined = join_v1_cgroup(command, pid);
  if (joined.ok() && ::write(go_write.get(), "g", 1) != 1)
    joined = make_sys_error(errno, "starting {}", command.argv.at(0));
  if (!joined.ok()) {
    ::syscall(SYS_pidfd_send_signal, pidfd.get(), SIGKILL, nullptr, 0);
    ::waitpid(pid, nullptr, 0);
    return joined;
  }
  go_write.reset();
  auto ending = wait_for(pid, pidfd.get(), err_read.get(), command.timeout);
  if (!ending.ok()) return ending.error();
  return describe(*ending, command);
}

}  // namespace graft::ldcache
