// SPDX-License-Identifier: Apache-2.0
// A host whose cgroups systemd manages, for the tests of what a systemd
// reload does to a running GPU container (systemd_reload_test.cpp): systemd
// 252 as PID 1 of a privileged podman container, on a Debian 12 root
// filesystem that tests/scripts/systemd-host-rootfs.sh debootstraps once and
// caches (mounted read-only under an overlay, so nothing a test does reaches
// the cache). Directories the test shares (graft's source and build trees,
// the fake GPU host, the bundles) are bind-mounted at their own paths, so
// policies, config.json and hook paths mean the same inside. Commands run
// there with `podman exec`; the container is removed when the SystemdHost
// goes away, whatever the test's outcome.
//
// Two cgroup layouts, on a hybrid (v1) host like this CI machine:
// - v1: the layout podman mounts (every v1 controller, and cgroup2 at
//   /sys/fs/cgroup/unified): systemd runs in hybrid mode, as on the host.
// - v2: a shell as PID 1 replaces that layout by a cgroup2 mount on
//   /sys/fs/cgroup and mounts bpffs on /sys/fs/bpf, then execs systemd with
//   systemd.unified_cgroup_hierarchy=1: systemd runs in unified mode, with
//   BPF device programs. The host's v1 hierarchies keep the controllers
//   (memory, pids, ...), so this cgroup2 tree has none; device access needs
//   none.
#pragma once

#include <string>
#include <vector>

#include "podman.hpp"
#include "runtime.hpp"

namespace graft::e2e {

// Why a systemd host cannot run here in `mode` ("" when it can): what
// podman_skip_reason() says, or why its root filesystem cannot be built
// (no debootstrap, no mirror), or the host lacks that mode's hierarchies.
std::string systemd_host_skip_reason(CgroupMode mode);

class SystemdHost {
 public:
  // Starts systemd and waits until it has booted (`systemctl
  // is-system-running` says "running"). `shared_dirs` are bind-mounted
  // read-write at their own paths; graft's source and build trees are
  // always there, read-only.
  SystemdHost(CgroupMode mode, const std::vector<std::string>& shared_dirs);
  ~SystemdHost();  // `podman rm --force`
  SystemdHost(const SystemdHost&) = delete;
  SystemdHost& operator=(const SystemdHost&) = delete;

  // Why systemd did not boot, with podman's and systemd's words; "" once it has.
  const std::string& start_error() const { return start_error_; }
  CgroupMode mode() const { return mode_; }

  // `podman exec NAME argv...`.
  testing::CommandResult exec(const std::vector<std::string>& argv);

 private:
  std::string boot(const std::vector<std::string>& shared_dirs);
  std::string wait_until_running();
  std::string check_layout();

  CgroupMode mode_;
  Podman podman_;
  std::string name_;
  std::string start_error_;
};

}  // namespace graft::e2e
