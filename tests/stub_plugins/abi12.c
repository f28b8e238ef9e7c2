// SPDX-License-Identifier: Apache-2.0
/* A plugin as ABI 1.2 built it: its struct_size ends after `finish`, so the
 * host must not read verify (ABI 1.3). The member past that size holds a
 * pointer that crashes if called, the way stale bytes after an old plugin's
 * descriptor would, so a host that ignored struct_size fails loudly. */
#include <graft/plugin.h>

#include <stddef.h>
#include <stdint.h>

static int applied;

static graft_status abi12_init(const struct graft_host_services* services, const char* config_json,
                               void** state, const char** error) {
  (void)services, (void)config_json, (void)error;
  *state = NULL;
  return GRAFT_OK;
}

static graft_status abi12_apply(void* state, const struct graft_action* action,
                                const struct graft_apply_context* context) {
  (void)state, (void)action, (void)context;
  applied++;
  return GRAFT_OK;
}

static void abi12_destroy(void* state) { (void)state; }

static const char* abi12_last_error(void* state) {
  (void)state;
  return NULL;
}

static const uint32_t abi12_kinds[] = {GRAFT_ACTION_SYMLINK};

static const struct graft_plugin abi12_plugin = {
    .abi_major = 1,
    .abi_minor = 2,
    .struct_size = offsetof(struct graft_plugin, finish) + sizeof(void*),
    .name = "abi12",
    .version = "1.2",
    .kinds = abi12_kinds,
    .kind_count = 1,
    .init = abi12_init,
    .apply = abi12_apply,
    .destroy = abi12_destroy,
    .last_error = abi12_last_error,
    .reserved = NULL,
    .prepare = NULL,
    .finish = NULL,
    .verify = (graft_status (*)(void*, const struct graft_action*, const struct graft_apply_context*,
                       const struct graft_finding_sink*))(uintptr_t)1,
};

const struct graft_plugin* graft_plugin_entry(void) { return &abi12_plugin; }
