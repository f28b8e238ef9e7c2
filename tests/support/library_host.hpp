// SPDX-License-Identifier: Apache-2.0
// The fake host the library-plugin tests share: one GPU, libraries only,
// and the bind of the driver's libcuda they plan.
#pragma once

#include <string>

#include "fake_host.hpp"
#include "plan/plan.hpp"

namespace graft::testing {

inline const std::string kCuda = "libcuda.so." + std::string(fixture::fake_driver_version());
inline const std::string kLibDir = fixture::FakeHost::lib_dir();  // /usr/lib/x86_64-linux-gnu

inline fixture::FakeHost library_host() {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_device_nodes = spec.with_binaries = spec.with_firmware = false;
  return fixture::FakeHost::build(spec);
}

// libcuda bound read-only from the host's library directory to the image's.
inline Action cuda_bind(const fixture::FakeHost& host) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "libraries",
                .source = host.path(kLibDir + "/" + kCuda), .target = kLibDir + "/" + kCuda,
                .options = {"ro", "nosuid", "nodev"}};
}

}  // namespace graft::testing
