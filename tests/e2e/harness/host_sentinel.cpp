// SPDX-License-Identifier: Apache-2.0
#include "host_sentinel.hpp"

#include <fmt/format.h>

#include "fixture_files.hpp"

namespace graft::e2e {

std::string HostSentinel::build(const std::string& root) {
  for (const char* dir : {"/lib", "/usr/lib/x86_64-linux-gnu", "/etc/ld.so.conf.d", "/dev",
                          "/bin", "/run/nvidia-persistenced", "/firmware"})
    fixture::make_dirs(root + dir);
  for (const char* file : {"/libcuda.so.1", "/libcuda.so.560.35.03", "/ld.so.cache", "/nvidia-smi",
                           "/socket", "/gsp_ga10x.bin", "/etc/ld.so.cache", "/etc/passwd",
                           "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/bin/nvidia-smi",
                           "/run/nvidia-persistenced/socket"})
    fixture::write_file(root + file, fmt::format("host sentinel {}: must never change\n", file));
  fixture::make_symlink("libcuda.so.560.35.03", root + "/lib/libcuda.so");
  return root;
}

}  // namespace graft::e2e
