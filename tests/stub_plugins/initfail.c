// SPDX-License-Identifier: Apache-2.0
/* init fails with a static message; the host must report it and still call
 * destroy once. */
#include "stub.h"

static graft_status fail_init(const struct graft_host_services* services, const char* config_json,
                              void** state, const char** error) {
  (void)services, (void)config_json;
  *state = NULL;
  *error = "no device directory configured";
  return GRAFT_ERROR;
}

static const struct graft_plugin plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR, .abi_minor = GRAFT_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(struct graft_plugin), .name = "initfail", .version = "1.0",
    .kinds = stub_kinds, .kind_count = 1, .init = fail_init, .apply = stub_apply,
    .destroy = stub_destroy, .last_error = stub_last_error};

const struct graft_plugin* graft_plugin_entry(void) { return &plugin; }
