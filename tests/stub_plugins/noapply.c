// SPDX-License-Identifier: Apache-2.0
/* Claims device_node but has no apply function: refused at load. */
#include "stub.h"

static const struct graft_plugin plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR, .abi_minor = GRAFT_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(struct graft_plugin), .name = "noapply", .version = "1.0",
    .kinds = stub_kinds, .kind_count = 1, .init = stub_init, .apply = NULL,
    .destroy = stub_destroy, .last_error = stub_last_error};

const struct graft_plugin* graft_plugin_entry(void) { return &plugin; }
