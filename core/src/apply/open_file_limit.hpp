// SPDX-License-Identifier: Apache-2.0
// How many files a hook may hold open while it applies a plan.
//
// Preparing a plan opens every host object before the container is entered
// and holds it until it is applied: a bind mount holds its source and its
// detached tree, so one fd or two per action. A plan that gives every GPU
// partition of a large host holds hundreds; 56 partitions hold about 410. The
// soft RLIMIT_NOFILE that systemd services, shells and some runtimes start
// with is 1,024, and a runtime may pass on less. The hard limit is what the
// administrator allows, and raising the soft limit to it needs no privilege,
// so graft does that before preparing (as the Go runtime does for every Go
// program, the hooks graft replaces among them). Children graft starts set
// their own: the ldconfig child runs with 64.
#pragma once

#include "graft/base/error.hpp"

namespace graft {

// Raises the soft RLIMIT_NOFILE to the hard one; leaves it as it is if the
// kernel refuses.
void raise_open_file_limit();

// `error` from preparing, with graft's open files and its limit named when it
// is EMFILE (its code, as the plugin left it): the plugin's own line says
// only "Too many open files", and what the admin must raise is the hard
// limit the runtime or service gave graft.
Error name_open_file_limit(Error error);

}  // namespace graft
