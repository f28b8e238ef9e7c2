// SPDX-License-Identifier: Apache-2.0
/* Shared stubs for the test plugins that exist to be refused. */
#include <graft/plugin.h>

#include <stddef.h>

__attribute__((unused)) static graft_status stub_init(const struct graft_host_services* services, const char* config_json,
                              void** state, const char** error) {
  (void)services, (void)config_json, (void)error;
  *state = NULL;
  return GRAFT_OK;
}
__attribute__((unused)) static graft_status stub_apply(void* state, const struct graft_action* action,
                               const struct graft_apply_context* context) {
  (void)state, (void)action, (void)context;
  return GRAFT_OK;
}
__attribute__((unused)) static void stub_destroy(void* state) { (void)state; }
__attribute__((unused)) static const char* stub_last_error(void* state) { (void)state; return NULL; }
static const uint32_t stub_kinds[] = {GRAFT_ACTION_DEVICE_NODE};
