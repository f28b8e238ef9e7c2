// SPDX-License-Identifier: Apache-2.0
// nvidia-container-runtime-hook: graft under the name Docker's `--gpus`
// looks for. dockerd 20.10 to 29.1 looks the name up on its PATH at start-up
// and, for `--gpus`, adds a prestart hook [nvidia-container-runtime-hook,
// prestart] with dockerd's own environment and no other argument. This
// program reads its command line as the toolkit's hook does (Go flags, then
// a command) and, for `prestart`, becomes `graft hook prestart` with the
// site policy: the graft installed with this program (found from its own
// file, /proc/self/exe, symlinks resolved), never one from PATH, which comes from
// dockerd's environment; and graft gets an environment of PATH alone, as
// from every hook definition graft ships (docs/security.md), not dockerd's.
// It starts nothing else and reads no variable.
// docs/hooks.md "Docker's --gpus" says what it accepts.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GRAFT_HOOK_TO_BINDIR
#error "GRAFT_HOOK_TO_BINDIR must say where graft is installed, seen from this program"
#endif
#ifndef GRAFT_DOC_DIR
#error "GRAFT_DOC_DIR must name where graft's documentation is installed"
#endif
#ifndef GRAFT_VERSION
#error "GRAFT_VERSION must name graft's version"
#endif

static const char kName[] = "nvidia-container-runtime-hook";

static char* const kGraftEnv[] = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", NULL};

// As the toolkit's hook: exit 2 for a command line it cannot read.
enum { kExitError = 1, kExitUsage = 2 };

static const char kUsage[] =
    "nvidia-container-runtime-hook: graft as the OCI hook Docker's --gpus runs\n"
    "\n"
    "Docker 20.10 to 29.1 add this program as a prestart hook of a --gpus container when it is\n"
    "on dockerd's PATH at start-up; it answers to the NVIDIA Container Toolkit hook's name.\n"
    "\n"
    "Usage: nvidia-container-runtime-hook [-config FILE] [-debug] COMMAND\n"
    "\n"
    "Commands:\n"
    "  prestart     Run `graft hook prestart` with the site policy on the OCI state on stdin,\n"
    "               with the graft installed with this program and an environment of PATH alone\n"
    "  poststart    Do nothing (as the toolkit's hook)\n"
    "  poststop     Do nothing (as the toolkit's hook)\n"
    "\n"
    "Options:\n"
    "  -config FILE  Accepted and ignored: graft reads its own site policy, not the toolkit's file\n"
    "  -debug        Accepted and ignored: graft writes its one-line errors on stderr, and its\n"
    "                decisions to the audit log the policy names\n"
    "  -help         This text\n"
    "  -version      The version\n"
    "Any other option or command is a usage error (exit 2). See " GRAFT_DOC_DIR "/hooks.md.\n";

static int usage_error(const char* what, const char* arg) {
  fprintf(stderr, "%s: %s: %s\n%s", kName, what, arg, kUsage);
  return kExitUsage;
}

// Go's strconv.ParseBool, which a boolean flag's "=value" goes through.
static int is_go_bool(const char* value) {
  static const char* const kBools[] = {"1", "t", "T", "TRUE", "true", "True",
                                       "0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < sizeof kBools / sizeof kBools[0]; ++i)
    if (strcmp(value, kBools[i]) == 0) return 1;
  return 0;
}

// graft as installed with this program: beside it (the build tree), else in
// the bin directory the install put it in (GRAFT_HOOK_TO_BINDIR, relative to
// this program's real directory: /proc/self/exe has its links resolved).
static int installed_graft(char* path, size_t size) {
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return -1;
  self[length] = '\0';
  char* slash = strrchr(self, '/');
  if (slash == NULL) return -1;
  *slash = '\0';
  int written = snprintf(path, size, "%s/graft", self);
  if (written <= 0 || (size_t)written >= size) return -1;
  if (access(path, X_OK) == 0) return 0;
  written = snprintf(path, size, "%s/%s/graft", self, GRAFT_HOOK_TO_BINDIR);
  return written > 0 && (size_t)written < size ? 0 : -1;
}

static int run_graft_prestart(void) {
  char graft[PATH_MAX];
  if (installed_graft(graft, sizeof graft) != 0) {
    fprintf(stderr, "%s: cannot find its own file in /proc/self/exe: %s\n", kName, strerror(errno));
    return kExitError;
  }
  char* const argv[] = {"graft", "hook", "prestart", NULL};
  execve(graft, argv, kGraftEnv);
  fprintf(stderr, "%s: cannot run %s: %s\n", kName, graft, strerror(errno));
  return kExitError;
}

// One flag at args[*at] ("-name", "--name", "-name=value"), as Go's flag
// package reads it. -1 to go on, else the exit code.
static int read_flag(int count, char** args, int* at) {
  const char* flag = args[*at] + (args[*at][1] == '-' ? 2 : 1);
  size_t name_length = strcspn(flag, "=");
  const char* value = flag[name_length] == '=' ? flag + name_length + 1 : NULL;
  if (name_length == 4 && strncmp(flag, "help", 4) == 0) {
    fputs(kUsage, stdout);
    return 0;
  }
  if ((name_length == 5 && strncmp(flag, "debug", 5) == 0) ||
      (name_length == 7 && strncmp(flag, "version", 7) == 0)) {
    if (value != NULL && !is_go_bool(value)) return usage_error("invalid boolean flag value", args[*at]);
    if (flag[0] == 'v' && (value == NULL || strchr("1tT", value[0]) != NULL)) {
      printf("%s (graft %s)\n", kName, GRAFT_VERSION);
      return 0;
    }
    return -1;
  }
  if (name_length == 6 && strncmp(flag, "config", 6) == 0) {
    if (value == NULL && ++*at >= count) return usage_error("flag needs an argument", "-config");
    return -1;
  }
  return usage_error("flag provided but not defined", args[*at]);
}

int main(int argc, char** argv) {
  int at = 1;
  for (; at < argc && argv[at][0] == '-' && argv[at][1] != '\0'; ++at) {
    if (strcmp(argv[at], "--") == 0) {
      ++at;
      break;
    }
    int done = read_flag(argc, argv, &at);
    if (done >= 0) return done;
  }
  if (at >= argc) return usage_error("no command", "expected prestart, poststart or poststop");
  const char* command = argv[at];
  if (strcmp(command, "prestart") == 0) return run_graft_prestart();
  if (strcmp(command, "poststart") == 0 || strcmp(command, "poststop") == 0) return 0;
  return usage_error("unknown command", command);
}
