// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the device-list and capability parsing of the shipped NVIDIA
// rules (policies/nvidia/visible_devices.lua, capabilities.lua, mig.lua), run
// through the engine against the fake host. Input: a flags byte (see
// engine_harness.hpp), then one line per channel below, in order.
#include <cstddef>
#include <cstdint>

#include "engine_harness.hpp"

namespace {

// Env values, one per input line; a missing line leaves the variable unset.
const char* const kEnvNames[] = {
    "NVIDIA_VISIBLE_DEVICES",    "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_MIG_CONFIG_DEVICES",
    "NVIDIA_MIG_MONITOR_DEVICES", "CUDA_VERSION",
};
constexpr std::size_t kEnvCount = sizeof kEnvNames / sizeof kEnvNames[0];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace graft::fuzz;
  EngineInput input = split_engine_input(data, size);
  graft::Request request = engine_request(input);
  for (std::size_t i = 0; i < kEnvCount; ++i)
    if (const std::string* value = value_at(input, i)) request.env[kEnvNames[i]] = *value;
  // Then the other two request channels: a CDI annotation and a volume mount.
  if (const std::string* value = value_at(input, kEnvCount))
    request.annotations["cdi.k8s.io/fuzz"] = *value;
  if (const std::string* value = value_at(input, kEnvCount + 1))
    request.mounts.push_back({"/var/run/nvidia-container-devices/" + *value, "/dev/null", "bind",
                              {"ro", "rbind"}});
  evaluate_on_fake_host(request, input.trust_unprivileged);
  return 0;
}
