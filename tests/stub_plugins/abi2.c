// SPDX-License-Identifier: Apache-2.0
/* Built for a future ABI major: the host must refuse it before reading more. */
#include "stub.h"

static const struct graft_plugin plugin = {
    .abi_major = 2, .abi_minor = 0, .struct_size = sizeof(struct graft_plugin),
    .name = "abi2", .version = "1.0", .kinds = stub_kinds, .kind_count = 1,
    .init = stub_init, .apply = stub_apply, .destroy = stub_destroy,
    .last_error = stub_last_error};

const struct graft_plugin* graft_plugin_entry(void) { return &plugin; }
