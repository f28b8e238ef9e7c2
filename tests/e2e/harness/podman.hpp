// SPDX-License-Identifier: Apache-2.0
// Running a container with Debian's podman (4.3.1) the way it works on these
// machines: runc, the cgroupfs manager, no network, bounded ulimits, a root
// filesystem directory (--rootfs) rather than an image. Each Podman keeps
// its own storage (--root, --runroot, --tmpdir) and its own locks in a
// private temporary directory, so nothing reaches podman's global store, and
// removes it when it goes away, unmounting whatever podman left mounted
// there first.
#pragma once

#include <string>
#include <vector>

#include "probed_container.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace graft::e2e {

// Absolute path of podman, "" when it is not installed.
std::string podman_path();

// Why podman cannot run containers here ("" when it can): not root, podman,
// runc or busybox missing, or a trial run of a plain busybox container
// failed (then podman's own error). The trial runs once per process.
std::string podman_skip_reason();

// What one `podman run` did.
struct PodmanRun {
  testing::CommandResult result;  // podman's exit code; stdout is the container's
  std::string name;               // the unique --name it ran under
  std::string id;                 // podman's container id (the OCI state's id), "" if none was made
};

class Podman {
 public:
  Podman();   // writes the private containers.conf
  ~Podman();  // unmounts what podman left under its storage, then removes it
  Podman(const Podman&) = delete;
  Podman& operator=(const Podman&) = delete;

  // `podman <storage> run --rm --name N --cidfile F <limits> <extra_args...>
  //  --rootfs ROOTFS <command...>` in the foreground. extra_args are any
  // `run` options: --hooks-dir DIR, --annotation K=V, --device X, --env K=V.
  PodmanRun run(const std::vector<std::string>& extra_args, const std::string& rootfs,
                const std::vector<std::string>& command);

  // Any other podman command against the same private storage.
  testing::CommandResult invoke(const std::vector<std::string>& args);

 private:
  // Named like a runtime state directory (host_mounts.cpp): the shm mount
  // podman makes there while a container runs is not a leak of another test.
  fixture::TempDir storage_{"graft-e2e-state-podman-"};
};

// One podman run of `spec`'s root, probed: the plan `graft plan` prints for
// a bundle of `spec` (with spec.hook_policy when set, else the test policy
// of gpu_host(); podman reads no config.json, so no hook of the bundle's
// runs) is what the check script, the container's command, checks, with
// the fixed probes `devices`. `run_args` are the case's own `run` options
// (--hooks-dir, --device, --env, ...), besides CAP_MKNOD and a /proc/driver
// tmpfs.
ProbedContainer run_podman_probed(const std::vector<std::string>& run_args, const BundleSpec& spec,
                                  const DeviceProbes& devices = nvidia_device_probes());

}  // namespace graft::e2e
