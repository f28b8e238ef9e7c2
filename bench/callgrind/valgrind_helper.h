// SPDX-License-Identifier: Apache-2.0
/* What valgrind_shim.c and valgrind_helper.c say to each other: one request
 * per syscall (its number, its arguments, the strings and mount_attr they
 * point to, the fds among them as SCM_RIGHTS), one reply (the result and
 * errno, and the fd the call made). Both sides are built by bench/run.sh. */
#pragma once

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
