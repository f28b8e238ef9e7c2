/* What valgrind_shim.c and valgrind_helper.c say to each other: one request
 * per syscall (its number, its arguments, the strings and mount_attr they
 * point to, the fds among them as SCM_RIGHTS), one reply (the result and
 * errno, and the fd the call made). Both sides are built by bench/run.sh. */
#pragma once

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#define HELPER_FD 3         /* the helper's end of the socket */
#define HELPER_STRING 4096  /* paths, fsconfig keys and values */
#define HELPER_SETNS (-1)   /* not a syscall number: follow a setns */

struct helper_request {
  long number;
  long args[6];
  int has_first, has_second; /* fsconfig: a NULL key or value stays NULL */
  char first[HELPER_STRING], second[HELPER_STRING];
  unsigned char attr[64]; /* mount_setattr's struct mount_attr */
};

struct helper_reply {
  long result;
  int error;
};

/* Reads one reply from `socket`: the result, an fd received with it in
 * place of the helper's own number, or -1 with the call's errno. */
static inline long receive_reply(int socket, struct helper_reply *reply) {
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
