// SPDX-License-Identifier: Apache-2.0
/* Built for the next ABI minor of this host's major: it may count on members
 * or calls this host lacks, so the host must refuse it, naming both
 * versions. Otherwise a complete, working descriptor. */
#include "stub.h"

static const struct graft_plugin plugin = {
    .abi_major = GRAFT_PLUGIN_ABI_MAJOR, .abi_minor = GRAFT_PLUGIN_ABI_MINOR + 1,
    .struct_size = sizeof(struct graft_plugin),
    .name = "abinext", .version = "1.0", .kinds = stub_kinds, .kind_count = 1,
    .init = stub_init, .apply = stub_apply, .destroy = stub_destroy,
    .last_error = stub_last_error};

const struct graft_plugin* graft_plugin_entry(void) { return &plugin; }
