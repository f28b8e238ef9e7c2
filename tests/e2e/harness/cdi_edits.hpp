// SPDX-License-Identifier: Apache-2.0
// A CDI spec's edits applied to a bundle's config.json the way a CDI engine
// applies them (podman, containerd and CRI-O use the CDI project's library;
// this follows its ContainerEdits.Apply), for runtimes driven without an
// engine (runc --systemd-cgroup inside the systemd test host):
// - env: appended to process.env;
// - deviceNodes: each added to linux.devices (type, major and minor from the
//   spec, or from the host node when the spec leaves them out) and allowed
//   in linux.resources.devices with its permissions ("rwm" when none);
// - mounts: added (a bind where the options say so), then every mount
//   sorted by the depth of its destination, as the library sorts them;
// - hooks: appended to their stage (hookName).
// The spec-wide edits come first, then each named device's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft::e2e {

// Applies the edits of `spec` (a whole CDI spec document) for the devices
// named `devices` (names within its kind) to `config`; throws when one of
// them is not in the spec.
void apply_cdi_edits(const nlohmann::json& spec, const std::vector<std::string>& devices, nlohmann::json& config);

}  // namespace graft::e2e
