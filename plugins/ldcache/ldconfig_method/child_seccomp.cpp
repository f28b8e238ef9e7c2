// SPDX-License-Identifier: Apache-2.0
// child_filter: a deny list rather than an allow list, because the host's
// ldconfig is whatever static glibc the host ships, and an allow list would
// break on the next glibc that reads a directory with another call. What
// it denies is what matters for an escape; everything it allows is checked
// by the chroot, the nodev/nosuid/noexec view, the empty capability sets and
// the container's device cgroup.
#include "child_seccomp.hpp"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>

namespace graft::ldcache {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
constexpr bool kKnownArch = true;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
constexpr bool kKnownArch = true;
#else
constexpr unsigned kArch = 0;
constexpr bool kKnownArch = false;
#endif

// Numbers of this architecture; a call the architecture lacks (fork on
// aarch64) has no SYS_ macro and is left out.
const long kDenied[] = {
    // mounts: the child's view is set up before the filter, never after
    SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_move_mount, SYS_open_tree,
    SYS_fsopen, SYS_fsconfig, SYS_fsmount, SYS_fspick, SYS_mount_setattr,
    // other processes and the kernel
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_pidfd_open,
    SYS_pidfd_getfd, SYS_kexec_load, SYS_kexec_file_load, SYS_reboot, SYS_init_module,
    SYS_finit_module, SYS_delete_module, SYS_bpf, SYS_perf_event_open, SYS_keyctl, SYS_add_key,
    SYS_request_key, SYS_unshare, SYS_setns, SYS_open_by_handle_at, SYS_name_to_handle_at,
    SYS_userfaultfd, SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
    SYS_fanotify_init, SYS_swapon, SYS_swapoff, SYS_acct, SYS_quotactl, SYS_sethostname,
    SYS_setdomainname, SYS_settimeofday, SYS_clock_settime, SYS_clock_adjtime, SYS_adjtimex,
    SYS_syslog, SYS_vhangup,
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
    // no new processes and no other program: ldconfig (static) never forks
    // or executes; RLIMIT_NPROC does not bind uid 0, this does
    SYS_clone, SYS_clone3, SYS_execve, SYS_memfd_create,
#ifdef SYS_fork
    SYS_fork, SYS_vfork,
#endif
};

constexpr size_t kDeniedCount = sizeof kDenied / sizeof kDenied[0];
static_assert(kDeniedCount < 200, "jump offsets of classic BPF are 8 bits");

sock_filter statement(unsigned short code, unsigned k) { return BPF_STMT(code, k); }
sock_filter jump(unsigned short code, unsigned k, size_t yes, size_t no) {
  return BPF_JUMP(code, k, static_cast<unsigned char>(yes), static_cast<unsigned char>(no));
}

}  // namespace

std::vector<sock_filter> child_filter() {
  if (!kKnownArch) return {};
  // Layout: arch check, load nr, [x32 check], one compare per denied call,
  // then ALLOW, DENY, KILL. Offsets count instructions after the jump.
  constexpr bool x32_check =
#ifdef __x86_64__
      true;
#else
      false;
#endif
  const size_t compares = kDeniedCount;
  const size_t allow = 2 + (x32_check ? 1 : 0) + 1 + compares;  // index of ALLOW
  const size_t deny = allow + 1, kill = allow + 2;
  std::vector<sock_filter> program;
  program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 0, kill - 2));
  program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  if (x32_check) program.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, kill - 4, 0));
  for (long nr : kDenied) {
    const size_t here = program.size();
    program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), deny - here - 1, 0));
  }
  program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)));
  program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  return program;
}

int install_child_filter(const std::vector<sock_filter>& program) {
  if (program.empty()) {
    errno = ENOSYS;
    return -1;
  }
  sock_fprog fprog{static_cast<unsigned short>(program.size()),
                   const_cast<sock_filter*>(program.data())};
  return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

}  // namespace graft::ldcache
