/* Preloaded only under valgrind 3.19 (Debian 12), which does not know
 * openat2 (syscall 437) and answers ENOSYS. graft opens paths inside a root
 * with openat2(RESOLVE_IN_ROOT); this turns that one call into openat relative
 * to the same root fd, which resolves identically on the bench's own fake host
 * (no absolute symlinks, no ".." out of it). Every other syscall() goes to
 * libc untouched. The user-space instructions callgrind counts are graft's
 * either way: the shim adds a few per call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...) {
  static long (*real)(long, ...);
  va_list args;
  va_start(args, number);
  long a[6];
  for (int i = 0; i < 6; ++i) a[i] = va_arg(args, long);
  va_end(args);
  if (number == SYS_openat2) {
    const char *path = (const char *)a[1];
    const struct open_how *how = (const struct open_how *)a[2];
    while (*path == '/') ++path;
    return openat((int)a[0], *path ? path : ".", (int)how->flags, (mode_t)how->mode);
  }
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
