// SPDX-License-Identifier: Apache-2.0
// The target families of the hostile-image table: for each place graft
// writes or mounts into a container, the container paths a hostile image
// plants at and the request that makes graft write there. Shared by the
// cgroup v1 tables (hostile_paths_test.cpp, hostile_driver_sets_test.cpp)
// and their cgroup v2 variants (hostile_cgroup_v2_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "hostile_image.hpp"

namespace graft::e2e {

// The standard request (GPU 1, compute and utility) and its targets.
Family library_dir_family();   // /usr, /usr/lib, the multiarch dir, a library file
Family soname_link_family();   // libcuda.so.1, libcuda.so
Family binaries_family();      // /usr/bin, /usr/bin/nvidia-smi
Family devices_family();       // /dev/nvidia1, /dev/nvidiactl (image without a /dev tmpfs)
Family firmware_family();      // /lib, /lib/firmware/nvidia/<version>, gsp_ga10x.bin
Family ipc_family();           // /run/nvidia-persistenced, its socket, /tmp/nvidia-mps
Family ldcache_family();       // /etc, /etc/ld.so.cache, /etc/ld.so.conf.d

// compat32 added: the 32-bit library directory, a library and its soname link.
Family lib32_family();
// GPU 1's MIG partition 1:0 on a MIG host: /dev/nvidia-caps and its cap nodes.
Family mig_node_family();
// A privileged container with NVIDIA_MIG_CONFIG_DEVICES=all on a MIG host:
// /dev/nvidia-caps is a directory bind.
Family mig_config_family();
// graphics added: the loaders' vendor files and the config file graft writes.
Family graphics_family();

// The GI access node of GPU 1's partition 1:0 ("/dev/nvidia-caps/nvidia-cap147").
std::string mig_cap_node();

// The family with its targets cut down to those whose shown paths are
// listed (each must be one of the family's), so a TEST_CASE stays short
// enough for the sanitizer build's per-test timeout.
Family only_targets(Family family, const std::vector<std::string>& shown);

// The site policy for a fake MIG host (GPUs 0 and 1, instances (1,0), (2,0),
// (2,1) each), built once per process, auditing to gpu_host()'s log.
const std::string& mig_host_policy();

}  // namespace graft::e2e
