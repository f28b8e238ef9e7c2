// SPDX-License-Identifier: Apache-2.0
/* A plugin as ABI 1.0 built it: its struct_size ends after `reserved` (then
 * `expand`), so the host must not read prepare or finish. The members past
 * that size hold pointers that crash if called, the way stale bytes after an
 * old plugin's descriptor would, so a host that ignored struct_size fails
 * loudly. */
#include <graft/plugin.h>

#include <stddef.h>
#include <stdint.h>

static int applied;

static graft_status abi10_init(const struct graft_host_services* services, const char* config_json,
                               void** state, const char** error) {
  (void)services, (void)config_json, (void)error;
  *state = NULL;
  return GRAFT_OK;
}

static graft_status abi10_apply(void* state, const struct graft_action* action,
                                const struct graft_apply_context* context) {
  (void)state, (void)action, (void)context;
  applied++;
  return GRAFT_OK;
}

static void abi10_destroy(void* state) { (void)state; }

static const char* abi10_last_error(void* state) {
  (void)state;
  return NULL;
}

static const uint32_t abi10_kinds[] = {GRAFT_ACTION_SYMLINK};

static const struct graft_plugin abi10_plugin = {
    .abi_major = 1,
    .abi_minor = 0,
    .struct_size = offsetof(struct graft_plugin, reserved) + sizeof(void*),
    .name = "abi10",
    .version = "1.0",
    .kinds = abi10_kinds,
    .kind_count = 1,
    .init = abi10_init,
    .apply = abi10_apply,
    .destroy = abi10_destroy,
    .last_error = abi10_last_error,
    .reserved = NULL,
    .prepare = (graft_status (*)(void*, const struct graft_action*, const struct graft_apply_context*))(uintptr_t)1,
    .finish = (graft_status (*)(void*, const struct graft_apply_context*))(uintptr_t)1,
};

const struct graft_plugin* graft_plugin_entry(void) { return &abi10_plugin; }
