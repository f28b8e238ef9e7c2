// SPDX-License-Identifier: Apache-2.0
/* A shared object a hostile image ships and names in LD_PRELOAD and LD_AUDIT
 * (tests/e2e/hostile_tools_test.cpp, CVE-2025-23266). Whenever a dynamic
 * program loads it, as a preload or as an audit module, it appends a line to
 * the file named by GRAFT_E2E_MARKER: proof that it ran. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void mark(const char* how) {
  const char* path = getenv("GRAFT_E2E_MARKER");
  if (path == NULL) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, how, strlen(how)) < 0) { /* nothing to do */ }
  close(fd);
}

__attribute__((constructor)) static void on_load(void) { mark("preloaded\n"); }

unsigned int la_version(unsigned int version) {
  mark("audited\n");
  return version;
}
