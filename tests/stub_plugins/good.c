// SPDX-License-Identifier: Apache-2.0
/* A well-behaved test plugin: claims bind_mount and symlink, keeps state,
 * logs through the host, warns on targets starting with "/warn", and fails
 * on targets starting with "/echo" with a message that spells out the action
 * it received, so the tests can see every field arrive. */
#include <graft/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct good_state {
  const struct graft_host_services* services;
  char message[512];
  int applied;
};

static graft_status good_init(const struct graft_host_services* services, const char* config_json,
                              void** state, const char** error) {
  struct good_state* s = calloc(1, sizeof *s);
  if (s == NULL) {
    *error = "out of memory";
    return GRAFT_ERROR;
  }
  s->services = services;
  (void)config_json;
  *state = s;
  services->log(services->host, GRAFT_LOG_DEBUG, "good plugin initialised");
  return GRAFT_OK;
}

static void join(char* out, size_t size, const char* const* list) {
  out[0] = '\0';
  for (; *list != NULL; ++list) {
    if (out[0] != '\0') strncat(out, ",", size - strlen(out) - 1);
    strncat(out, *list, size - strlen(out) - 1);
  }
}

static graft_status good_apply(void* state, const struct graft_action* action,
                               const struct graft_apply_context* context) {
  struct good_state* s = state;
  char options[128];
  if (strncmp(action->target, "/warn", 5) == 0) {
    snprintf(s->message, sizeof s->message, "%s is given, but may not last", action->target);
    s->services->log(s->services->host, GRAFT_LOG_WARNING, s->message);
  }
  if (strncmp(action->target, "/echo", 5) != 0) {
    s->applied++;
    return GRAFT_OK;
  }
  join(options, sizeof options, action->options);
  snprintf(s->message, sizeof s->message,
           "kind=%u source=%s options=%s content=%zu reason=%s container=%s applied=%d",
           (unsigned)action->kind, action->source, options, action->content_length,
           action->reason, context->container_id, s->applied);
  return GRAFT_ERROR;
}

static void good_destroy(void* state) { free(state); }

static const char* good_last_error(void* state) {
  return state ? ((struct good_state*)state)->message : NULL;
}

static const uint32_t good_kinds[] = {GRAFT_ACTION_BIND_MOUNT, GRAFT_ACTION_SYMLINK};

static const struct graft_plugin good_plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR,
    .abi_minor = GRAFT_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(struct graft_plugin),
    .name = "good",
    .version = "1.0",
    .kinds = good_kinds,
    .kind_count = 2,
    .init = good_init,
    .apply = good_apply,
    .destroy = good_destroy,
    .last_error = good_last_error,
    .reserved = NULL,
};

const struct graft_plugin* graft_plugin_entry(void) { return &good_plugin; }
