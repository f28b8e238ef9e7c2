// SPDX-License-Identifier: Apache-2.0
/* A static stand-in for ldconfig that reports, on one stderr line, what the
 * confined child may do: each system call below that escapes or multiplies
 * (mount, fork, keyctl, unshare of a user namespace, ptrace), opening the
 * device node /planted-node, and who it is (pid inside its namespace, uid,
 * gid). Then it exits with status 3, so the plugin's error carries the line.
 * Sealed and run by the ldcache plugin tests in place of the host's ldconfig. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* "ok", or the errno name right after the call. */
#define TRY(call) ((call) >= 0 ? "ok" : strerrorname_np(errno))

static long try_fork(void) {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  if (pid > 0) waitpid(pid, NULL, 0);
  return pid;
}

static long try_open_node(void) {
  int fd = open("/planted-node", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
  return fd;
}

int main(void) {
  const char* mounted = TRY(mount("none", "/", "tmpfs", 0, NULL));
  const char* forked = TRY(try_fork());
  const char* keyring = TRY(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
  const char* unshared = TRY(unshare(CLONE_NEWUSER));
  const char* traced = TRY(ptrace(PTRACE_TRACEME, 0, NULL, NULL));
  const char* opened = TRY(try_open_node());
  fprintf(stderr, "mount=%s fork=%s keyctl=%s unshare=%s ptrace=%s open_node=%s pid=%d uid=%u gid=%u\n",
          mounted, forked, keyring, unshared, traced, opened, (int)getpid(), (unsigned)getuid(),
          (unsigned)getgid());
  return 3;
}
