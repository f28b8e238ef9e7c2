// SPDX-License-Identifier: Apache-2.0
// The bpf filesystem that keeps cgroup v2 device filters reachable
// (device_filter_v2.cpp pins each one's prog array there).
//
// systemd mounts one on /sys/fs/bpf at boot; a host without systemd (a VM
// with its own init, a node image that skips it) may have the empty
// directory alone, and the hook then failed on every GPU container. So when
// the plugin's "bpffs" path holds no bpf filesystem, one is mounted there,
// as systemd would (mode 0700, nosuid, nodev, noexec), in the hook's
// namespace, which is the host's: the pins must outlive the hook.
// Config "mount_bpffs" = "off" forbids that; the hook then fails and says
// what to mount. Two hooks racing to mount take a lock on the directory
// under the mount point, so the host gets one mount, not two stacked.
#pragma once

#include <functional>
#include <string>

#include "graft/base/error.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::cgroup {

// An O_PATH fd of the bpf filesystem at `path`, mounting one there first
// when `may_mount` and nothing is; `mounted` hears one line when it does.
Result<UniqueFd> open_bpf_filesystem(const std::string& path, bool may_mount,
                                     const std::function<void(const std::string&)>& mounted);

}  // namespace graft::cgroup
