// SPDX-License-Identifier: Apache-2.0
/* floor: the syscalls of one graft plan and nothing else, the floor graft's
 * apply is measured against (bench/floor.sh).
 *
 * Reads the plan's actions as flatten.py writes them, enters a private mount
 * namespace, mounts a tmpfs scratch root with the same skeleton the bench gives
 * graft, then, timed: opens each source, open_tree/mount_setattr/move_mount
 * for binds and bound device nodes, mknod for created nodes, symlink, one
 * devices.allow write per cgroup rule, a tmpfs with copied files for the procfs
 * mask, and the ld cache written to a temporary name and renamed. Prints the
 * timed section in milliseconds. No checks beyond the syscalls' own results:
 * this is the cost graft cannot go below.
 *   floor ACTIONS.tsv ROOT CGROUP_DIR LDCACHE_BYTES
 *
 * With --hook it is an OCI hook instead (bench/create.sh: the least a hook
 * doing this plan can add to a container create): it reads the container's
 * state from stdin, joins its mount namespace and does the same syscalls in
 * BUNDLE/rootfs, untimed, printing nothing.
 *   floor --hook ACTIONS.tsv CGROUP_DIR LDCACHE_BYTES < STATE.json */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_FIELDS 16

static void die(const char *what, const char *path) {
  fprintf(stderr, "floor: %s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

static char *slurp(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) die("open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) die("stat", path);
  char *data = malloc((size_t)st.st_size + 1);
  ssize_t got = read(fd, data, (size_t)st.st_size);
  if (got != st.st_size) die("read", path);
  data[got] = '\0';
  close(fd);
  *size = (size_t)got;
  return data;
}

/* mkdir -p of every parent of `path` (absolute, under the scratch root). */
static void make_parents(char *path) {
  for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    if (mkdir(path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
    *slash = '/';
  }
}

static void bind(const char *root, const char *source, const char *target, int read_only) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s", root, target);
  int source_fd = open(source, O_PATH | O_CLOEXEC);
  if (source_fd < 0) die("open", source);
  struct stat st;
  if (fstat(source_fd, &st) != 0) die("stat", source);
  make_parents(path);
  if (S_ISDIR(st.st_mode)) {
    if (mkdir(path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
  } else {
    int created = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (created < 0) die("create", path);
    close(created);
  }
  int tree = (int)syscall(SYS_open_tree, source_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
  if (tree < 0) die("open_tree", source);
  struct mount_attr attr = {.attr_set = MOUNT_ATTR_NOSUID | (read_only ? MOUNT_ATTR_RDONLY : 0)};
  if (!S_ISCHR(st.st_mode)) attr.attr_set |= MOUNT_ATTR_NODEV;
  if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr) != 0)
    die("mount_setattr", source);
  if (syscall(SYS_move_mount, tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) != 0)
    die("move_mount", path);
  close(tree);
  close(source_fd);
}

static void copy_file(const char *from, const char *to) {
  char buffer[65536];
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) die("open", from);
  int out = open(to, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0444);
  if (out < 0) die("create", to);
  for (ssize_t got; (got = read(in, buffer, sizeof buffer)) > 0;)
    if (write(out, buffer, (size_t)got) != got) die("write", to);
  close(in);
  close(out);
}

static void procfs_mask(const char *root, char **fields, int count) {
  char target[4096], from[4096], to[4096];
  snprintf(target, sizeof target, "%s%s/", root, fields[2]);
  make_parents(target);
  if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555") != 0)
    die("mount tmpfs", target);
  for (int i = 3; i < count; ++i) {
    snprintf(from, sizeof from, "%s/%s", fields[1], fields[i]);
    snprintf(to, sizeof to, "%s%s", target, fields[i]);
    copy_file(from, to);
  }
}

static void write_ldcache(const char *root, const char *target, const char *bytes, size_t size) {
  char path[4096], temporary[4200];
  snprintf(path, sizeof path, "%s%s", root, target);
  snprintf(temporary, sizeof temporary, "%s.floor~", path);
  int fd = open(temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) die("create", temporary);
  if (write(fd, bytes, size) != (ssize_t)size) die("write", temporary);
  close(fd);
  if (rename(temporary, path) != 0) die("rename", path);
}

static int split(char *line, char **fields) {
  int count = 0;
  for (char *field = strtok(line, "\t\n"); field && count < MAX_FIELDS; field = strtok(NULL, "\t\n"))
    fields[count++] = field;
  return count;
}

static void run_actions(char *actions, const char *root, int cgroup_fd, const char *ldcache,
                        size_t ldcache_size) {
  char path[4096];
  for (char *line = actions, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    char *f[MAX_FIELDS];
    int n = split(line, f);
    if (strcmp(f[0], "bind") == 0) {
      bind(root, f[1], f[2], strcmp(f[3], "ro") == 0);
    } else if (strcmp(f[0], "node") == 0) {
      bind(root, f[1], f[2], 0);
    } else if (strcmp(f[0], "mknod") == 0) {
      snprintf(path, sizeof path, "%s%s", root, f[1]);
      make_parents(path);
      mode_t type = f[2][0] == 'b' ? S_IFBLK : S_IFCHR;
      if (mknod(path, type | 0666, makedev(atoi(f[3]), atoi(f[4]))) != 0) die("mknod", path);
    } else if (strcmp(f[0], "symlink") == 0) {
      snprintf(path, sizeof path, "%s%s", root, f[2]);
      make_parents(path);
      if (symlink(f[1], path) != 0) die("symlink", path);
    } else if (strcmp(f[0], "cgroup") == 0) {
      if (write(cgroup_fd, f[1], strlen(f[1])) < 0) die("write devices.allow", f[1]);
    } else if (strcmp(f[0], "procfs") == 0) {
      procfs_mask(root, f, n);
    } else if (strcmp(f[0], "ldcache") == 0) {
      write_ldcache(root, f[1], ldcache, ldcache_size);
    } else {
      fprintf(stderr, "floor: unknown action %s\n", f[0]);
      exit(1);
    }
  }
}

/* The skeleton bench/floor.sh gives graft's target root too. */
static void make_scratch_root(const char *root) {
  static const char *dirs[] = {"bin", "dev", "etc", "proc", "run", "tmp", "usr", "usr/bin", "usr/lib"};
  if (unshare(CLONE_NEWNS) != 0) die("unshare", "CLONE_NEWNS");
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) die("make private", "/");
  if (mount("tmpfs", root, "tmpfs", 0, "mode=0755") != 0) die("mount tmpfs", root);
  char path[4096];
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; ++i) {
    snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
    if (mkdir(path, 0755) != 0) die("mkdir", path);
  }
}

/* The value after `"key":` in the OCI state on stdin, which runc writes
 * compactly; a string's quotes are dropped (the bench's paths need no escapes). */
static void state_field(const char *state, const char *key, char *value, size_t size) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":", key);
  const char *at = strstr(state, pattern);
  if (!at) die("no field in the state on stdin:", key);
  at += strlen(pattern);
  if (*at == '"') ++at;
  size_t length = strcspn(at, "\",}");
  if (length >= size) die("field too long in the state on stdin:", key);
  memcpy(value, at, length);
  value[length] = '\0';
}

static int run_as_hook(char **argv) {
  char state[65536], pid[32], bundle[4096], path[4200];
  size_t size = 0;
  for (ssize_t got; size < sizeof state - 1 && (got = read(0, state + size, sizeof state - 1 - size)) != 0;) {
    if (got < 0) die("read", "the state on stdin");
    size += (size_t)got;
  }
  state[size] = '\0';
  state_field(state, "pid", pid, sizeof pid);
  state_field(state, "bundle", bundle, sizeof bundle);
  size_t actions_size, ldcache_size;
  char *actions = slurp(argv[2], &actions_size);
  char *ldcache = slurp(argv[4], &ldcache_size);
  snprintf(path, sizeof path, "/proc/%s/ns/mnt", pid);
  int namespace_fd = open(path, O_RDONLY | O_CLOEXEC);
  if (namespace_fd < 0 || setns(namespace_fd, CLONE_NEWNS) != 0) die("setns", path);
  close(namespace_fd);
  snprintf(path, sizeof path, "%s/devices.allow", argv[3]);
  int cgroup_fd = open(path, O_WRONLY | O_CLOEXEC);
  if (cgroup_fd < 0) die("open", path);
  snprintf(path, sizeof path, "%s/rootfs", bundle);
  run_actions(actions, path, cgroup_fd, ldcache, ldcache_size);
  close(cgroup_fd);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "--hook") == 0) return run_as_hook(argv);
  if (argc != 5) {
    fprintf(stderr, "usage: floor ACTIONS.tsv ROOT CGROUP_DIR LDCACHE_BYTES\n"
                    "       floor --hook ACTIONS.tsv CGROUP_DIR LDCACHE_BYTES < STATE.json\n");
    return 2;
  }
  size_t actions_size, ldcache_size;
  char *actions = slurp(argv[1], &actions_size);
  char *ldcache = slurp(argv[4], &ldcache_size);
  make_scratch_root(argv[2]);
  char allow[4096];
  snprintf(allow, sizeof allow, "%s/devices.allow", argv[3]);

  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int cgroup_fd = open(allow, O_WRONLY | O_CLOEXEC);
  if (cgroup_fd < 0) die("open", allow);
  run_actions(actions, argv[2], cgroup_fd, ldcache, ldcache_size);
  close(cgroup_fd);
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%.3f\n", (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6);
  return 0;
}
