// SPDX-License-Identifier: Apache-2.0
/* Exports a misspelt entry point: the host must find no graft_plugin_entry. */
#include <graft/plugin.h>

GRAFT_PLUGIN_EXPORT int graft_plugin_entrypoint(void);
int graft_plugin_entrypoint(void) { return 0; }
