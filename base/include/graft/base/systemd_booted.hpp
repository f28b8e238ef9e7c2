// SPDX-License-Identifier: Apache-2.0
// Whether systemd runs as a host's init, as sd_booted(3) tells it: its
// runtime directory /run/systemd/system exists. What graft does only for
// systemd's sake (telling a unit its device rules, /dev/char links for
// runc's systemd driver) is skipped on a host without it: nothing there
// rewrites a container's device rules on a reload.
#pragma once

#include <string>

namespace graft {

// `root` is where the host's root is seen ("" or "/" for this one, the node
// agent's "/host").
bool systemd_booted(const std::string& root = "");

}  // namespace graft
