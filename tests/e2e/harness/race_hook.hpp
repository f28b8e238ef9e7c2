// SPDX-License-Identifier: Apache-2.0
// The prestart hook of a raced container: a host /bin/sh wrapper around
// `graft hook prestart` that plays the hook's half of the swapper's
// handshake (race_swapper.hpp) and, once graft has exited and while the
// container's mount namespace still holds every mount graft made, copies
// that namespace's mount table (/proc/<pid>/mountinfo, read from the host's
// side, so paths outside the rootfs show as such) for the test to inspect.
#pragma once

#include <string>

#include "race_swapper.hpp"

namespace graft::e2e {

// Replaces hooks.prestart in `bundle`/config.json with the wrapper, which
// runs graft with `policy` and writes the container's mountinfo to
// `mountinfo_copy`. `after_graft` is shell run right after graft ($pid is
// the container's init): the harness's controls escape on purpose there.
void install_race_hook(const std::string& bundle, const std::string& policy,
                       const RaceSignals& signals, const std::string& mountinfo_copy,
                       const std::string& after_graft = "");

}  // namespace graft::e2e
