// SPDX-License-Identifier: Apache-2.0
/* Preloaded only under valgrind 3.19 (Debian 12), which answers ENOSYS to
 * syscalls newer than it: openat2, pidfd_open and the mount API (fsopen,
 * fsconfig, fsmount, open_tree, move_mount, mount_setattr). The instructions
 * callgrind counts are graft's either way; the shim adds a few per call.
 *  - openat2(RESOLVE_IN_ROOT) becomes openat relative to the same root fd,
 *    which resolves identically on the bench's own fake host (no absolute
 *    symlinks, no ".." out of it).
 *  - The others are made by valgrind_helper (GRAFT_VALGRIND_HELPER), a native
 *    process valgrind does not trace: each call goes to it over a socket with
 *    its fds (SCM_RIGHTS), and the fd it makes comes back the same way. It
 *    follows every setns graft makes, so a mount lands in the namespace
 *    graft is in.
 * Every other syscall() and setns() goes to libc untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "valgrind_helper.h"

static int helper = -1;

static int start_helper(void) {
  const char *path = getenv("GRAFT_VALGRIND_HELPER");
  int pair[2];
  if (path == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    if (pair[1] == HELPER_FD) fcntl(HELPER_FD, F_SETFD, 0);
    else dup2(pair[1], HELPER_FD); /* dup2 clears close-on-exec */
    char *no_environment[] = {NULL}; /* above all no LD_PRELOAD of this shim */
    execle(path, path, (char *)NULL, no_environment);
    _exit(127);
  }
  close(pair[1]);
  if (pid < 0) {
    close(pair[0]);
    return -1;
  }
  helper = pair[0];
  return 0;
}

/* Reads one reply from `socket`: the result, an fd received with it in
 * place of the helper's own number, or -1 with the call's errno. */
static long receive_reply(int socket, struct helper_reply *reply) {
  char control[CMSG_SPACE(sizeof(int))];
  struct iovec part = {reply, sizeof *reply};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control,
                           .msg_controllen = sizeof control};
  if (recvmsg(socket, &message, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof *reply) {
    errno = EIO;
    return -1;
  }
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  if (header != NULL && header->cmsg_type == SCM_RIGHTS) {
    int fd;
    memcpy(&fd, CMSG_DATA(header), sizeof fd);
    return fd;
  }
  if (reply->result < 0) errno = reply->error;
  return reply->result;
}

/* One request to the helper and its reply: the call's result, or -1 with errno. */
static long ask(struct helper_request *request, const int *fds, int fd_count) {
  if (helper < 0 && start_helper() != 0) {
    errno = ENOSYS;
    return -1;
  }
  char control[CMSG_SPACE(sizeof(int) * 2)] = {0};
  struct iovec part = {request, sizeof *request};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
  if (fd_count > 0) {
    message.msg_control = control;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)fd_count);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)fd_count);
    memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)fd_count);
  }
  if (sendmsg(helper, &message, 0) < 0) return -1;
  struct helper_reply reply;
  return receive_reply(helper, &reply);
}

/* No strncpy, and no zeroed request: padding 8 KiB per call would add its
 * own instructions to the count. */
static void copy_string(char *to, const char *from) {
  size_t length = from == NULL ? 0 : strnlen(from, HELPER_STRING - 1);
  memcpy(to, from == NULL ? "" : from, length);
  to[length] = '\0';
}

/* The request for syscall `number`, with the fds among its arguments. */
static long forward(long number, const long *a) {
  struct helper_request request;
  request.number = number;
  request.has_first = request.has_second = 0;
  request.first[0] = request.second[0] = '\0';
  memcpy(request.args, a, sizeof request.args);
  int fds[2], count = 0;
  switch (number) {
    case SYS_fsopen: copy_string(request.first, (const char *)a[0]); break;
    case SYS_fsconfig:
      fds[count++] = (int)a[0];
      request.has_first = a[2] != 0;
      request.has_second = a[3] != 0;
      copy_string(request.first, (const char *)a[2]);
      copy_string(request.second, (const char *)a[3]);
      break;
    case SYS_fsmount: fds[count++] = (int)a[0]; break;
    case SYS_open_tree:
    case SYS_mount_setattr:
      if ((int)a[0] >= 0) fds[count++] = (int)a[0];
      copy_string(request.first, (const char *)a[1]);
      if (number == SYS_mount_setattr && (size_t)a[4] <= sizeof request.attr)
        memcpy(request.attr, (const void *)a[3], (size_t)a[4]);
      break;
    case SYS_move_mount:
      if ((int)a[0] >= 0) fds[count++] = (int)a[0];
      if ((int)a[2] >= 0) fds[count++] = (int)a[2];
      copy_string(request.first, (const char *)a[1]);
      copy_string(request.second, (const char *)a[3]);
      break;
    default: break; /* pidfd_open: numbers only */
  }
  return ask(&request, fds, count);
}

long syscall(long number, ...) {
  static long (*real)(long, ...);
  va_list args;
  va_start(args, number);
  long a[6];
  for (int i = 0; i < 6; ++i) a[i] = va_arg(args, long);
  va_end(args);
  switch (number) {
    case SYS_openat2: {
      const char *path = (const char *)a[1];
      const struct open_how *how = (const struct open_how *)a[2];
      while (*path == '/') ++path;
      return openat((int)a[0], *path ? path : ".", (int)how->flags, (mode_t)how->mode);
    }
    case SYS_pidfd_open:
    case SYS_fsopen:
    case SYS_fsconfig:
    case SYS_fsmount:
    case SYS_open_tree:
    case SYS_move_mount:
    case SYS_mount_setattr: return forward(number, a);
    default: break;
  }
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int setns(int fd, int type) {
  static int (*real)(int, int);
  if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "setns");
  int result = real(fd, type);
  if (result != 0 || helper < 0) return result;
  struct helper_request request;
  request.number = HELPER_SETNS;
  request.args[0] = fd;
  request.args[1] = type;
  return (int)ask(&request, &fd, 1);
}
