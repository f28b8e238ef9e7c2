// SPDX-License-Identifier: Apache-2.0
/* A stand-in that breaks on purpose. It takes the name of the file it is
 * loaded from (libcgroup.so calls itself "cgroup"), so a test can put it in a
 * copy of the real plugin directory in place of one mechanism, and claims
 * every action kind. Its plugin config says how it breaks:
 *   "mode": "segv"  dereferences a bad pointer (a real SIGSEGV, no raise())
 *           "fail"  returns GRAFT_ERROR with a message
 *           "hang"  never returns (blocked in pause(); only a signal ends it)
 *           "none"  (or absent) applies nothing and succeeds
 *   "phase": "init" | "prepare" | "apply" (default) | "finish" | "destroy"
 * The config arrives as compact JSON, so a substring match is enough. */
#define _GNU_SOURCE
#include <graft/plugin.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum crash_mode { CRASH_NONE, CRASH_FAIL, CRASH_SEGV, CRASH_HANG };

struct crash_state {
  enum crash_mode mode;
  char phase[16];
};

static char crash_name[64] = "crash";

static graft_status crash_here(struct crash_state* s, const char* phase) {
  if (strcmp(s->phase, phase) != 0) return GRAFT_OK;
  if (s->mode == CRASH_SEGV) {
    /* Not NULL, so no sanitizer turns it into a report first. */
    int* volatile bad = (int*)(uintptr_t)8;
    *bad = 1;
  }
  while (s->mode == CRASH_HANG) pause();
  return s->mode == CRASH_FAIL ? GRAFT_ERROR : GRAFT_OK;
}

static const char* phase_in(const char* config_json) {
  static const char* const phases[] = {"init", "prepare", "finish", "destroy"};
  char key[32];
  for (size_t i = 0; i < sizeof phases / sizeof phases[0]; ++i) {
    snprintf(key, sizeof key, "\"phase\":\"%s\"", phases[i]);
    if (strstr(config_json, key) != NULL) return phases[i];
  }
  return "apply";
}

static graft_status crash_init(const struct graft_host_services* services, const char* config_json,
                               void** state, const char** error) {
  (void)services;
  struct crash_state* s = calloc(1, sizeof *s);
  if (s == NULL) {
    *error = "out of memory";
    return GRAFT_ERROR;
  }
  s->mode = strstr(config_json, "\"mode\":\"segv\"")   ? CRASH_SEGV
            : strstr(config_json, "\"mode\":\"fail\"") ? CRASH_FAIL
            : strstr(config_json, "\"mode\":\"hang\"") ? CRASH_HANG
                                                       : CRASH_NONE;
  strcpy(s->phase, phase_in(config_json));
  *state = s;
  if (crash_here(s, "init") == GRAFT_OK) return GRAFT_OK;
  *error = "failed on purpose";
  return GRAFT_ERROR;
}

static graft_status crash_prepare(void* state, const struct graft_action* action,
                                  const struct graft_apply_context* context) {
  (void)action, (void)context;
  return crash_here(state, "prepare");
}

static graft_status crash_apply(void* state, const struct graft_action* action,
                                const struct graft_apply_context* context) {
  (void)action, (void)context;
  return crash_here(state, "apply");
}

static graft_status crash_finish(void* state, const struct graft_apply_context* context) {
  (void)context;
  return crash_here(state, "finish");
}

static void crash_destroy(void* state) {
  if (state != NULL) crash_here(state, "destroy");
  free(state);
}

static const char* crash_last_error(void* state) {
  (void)state;
  return "failed on purpose";
}

static const uint32_t crash_kinds[] = {
    GRAFT_ACTION_DEVICE_NODE, GRAFT_ACTION_CGROUP_ALLOW, GRAFT_ACTION_BIND_MOUNT,
    GRAFT_ACTION_SYMLINK,     GRAFT_ACTION_PROCFS_MASK,  GRAFT_ACTION_CONFIG_FILE,
    GRAFT_ACTION_LDCACHE_UPDATE};

static const struct graft_plugin crash_plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR,
    .abi_minor = GRAFT_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(struct graft_plugin),
    .name = crash_name,
    .version = "1.0",
    .kinds = crash_kinds,
    .kind_count = sizeof crash_kinds / sizeof crash_kinds[0],
    .init = crash_init,
    .apply = crash_apply,
    .destroy = crash_destroy,
    .last_error = crash_last_error,
    .reserved = NULL,
    .prepare = crash_prepare,
    .finish = crash_finish,
};

/* graft loads plugins through /proc/self/fd/N; the link names the file. */
static void take_file_name(void) {
  Dl_info info;
  char path[4096];
  if (dladdr((void*)take_file_name, &info) == 0 || info.dli_fname == NULL) return;
  ssize_t n = readlink(info.dli_fname, path, sizeof path - 1);
  if (n <= 0) return;
  path[n] = '\0';
  const char* base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base);
  if (len <= 6 || strncmp(base, "lib", 3) != 0 || strcmp(base + len - 3, ".so") != 0) return;
  len -= 6;
  if (len >= sizeof crash_name) return;
  memcpy(crash_name, base + 3, len);
  crash_name[len] = '\0';
}

const struct graft_plugin* graft_plugin_entry(void) {
  take_file_name();
  return &crash_plugin;
}
