// SPDX-License-Identifier: Apache-2.0
/* valgrind_helper: makes, natively, the syscalls valgrind 3.19 does not know,
 * for the graft process valgrind_shim.c is preloaded into (see there). Reads
 * requests on fd 3 until graft closes its end; exits then. Never run by hand. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "valgrind_helper.h"

/* Receives one request and up to two fds, in argument order. */
static int receive_request(struct helper_request *request, int *fds, int *count) {
  char control[CMSG_SPACE(sizeof(int) * 2)];
  struct iovec part = {request, sizeof *request};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control,
                           .msg_controllen = sizeof control};
  ssize_t got = recvmsg(HELPER_FD, &message, MSG_CMSG_CLOEXEC);
  if (got != (ssize_t)sizeof *request) return -1;
  *count = 0;
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  if (header != NULL && header->cmsg_type == SCM_RIGHTS) {
    *count = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    memcpy(fds, CMSG_DATA(header), sizeof(int) * (size_t)*count);
  }
  return 0;
}

/* The syscall, with the helper's fds in place of graft's numbers. */
static long perform(struct helper_request *r, const int *fds, int count) {
  long *a = r->args;
  int next = 0;
#define FD(i) ((int)a[i] >= 0 && next < count ? fds[next++] : (int)a[i])
  switch (r->number) {
    case HELPER_SETNS: return setns(fds[0], (int)a[1]);
    case SYS_pidfd_open: return syscall(SYS_pidfd_open, a[0], a[1]);
    case SYS_fsopen: return syscall(SYS_fsopen, r->first, a[1]);
    case SYS_fsconfig:
      return syscall(SYS_fsconfig, FD(0), a[1], r->has_first ? r->first : NULL,
                     r->has_second ? r->second : NULL, a[4]);
    case SYS_fsmount: return syscall(SYS_fsmount, FD(0), a[1], a[2]);
    case SYS_open_tree: return syscall(SYS_open_tree, FD(0), r->first, a[2]);
    case SYS_mount_setattr: return syscall(SYS_mount_setattr, FD(0), r->first, a[2], r->attr, a[4]);
    case SYS_move_mount: {
      int from = FD(0);
      int to = FD(2);
      return syscall(SYS_move_mount, from, r->first, to, r->second, a[4]);
    }
    default: errno = ENOSYS; return -1;
  }
#undef FD
}

static int makes_fd(long number) {
  return number == SYS_pidfd_open || number == SYS_fsopen || number == SYS_fsmount ||
         number == SYS_open_tree;
}

static void reply(long result, int error, int made_fd) {
  struct helper_reply answer = {.result = result, .error = error};
  char control[CMSG_SPACE(sizeof(int))];
  struct iovec part = {&answer, sizeof answer};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
  if (made_fd >= 0) {
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &made_fd, sizeof made_fd);
  }
  if (sendmsg(HELPER_FD, &message, 0) < 0) exit(1);
}

int main(void) {
  static struct helper_request request;
  int fds[2], count;
  while (receive_request(&request, fds, &count) == 0) {
    long result = perform(&request, fds, count);
    int error = result < 0 ? errno : 0;
    int made = result >= 0 && makes_fd(request.number) ? (int)result : -1;
    reply(result, error, made);
    for (int i = 0; i < count; ++i) close(fds[i]);
    if (made >= 0) close(made);
  }
  return 0;
}
