// SPDX-License-Identifier: Apache-2.0
/* Sets the slot that was `expand` (declared, never called): the host
 * must refuse it rather than run a plugin that expects that call. */
#include "stub.h"

static int stale;  /* anything non-NULL */

static const struct graft_plugin plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR, .abi_minor = GRAFT_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(struct graft_plugin),
    .name = "reserved", .version = "1.0", .kinds = stub_kinds, .kind_count = 1,
    .init = stub_init, .apply = stub_apply, .destroy = stub_destroy,
    .last_error = stub_last_error, .reserved = &stale};

const struct graft_plugin* graft_plugin_entry(void) { return &plugin; }
