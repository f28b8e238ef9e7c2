// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the requirement expressions of the shipped NVIDIA rules
// (policies/nvidia/requirements.lua), run through the engine against the fake
// host with every GPU requested, so the requirements are always checked.
// Input: a flags byte (see engine_harness.hpp), then NVIDIA_REQUIRE_CUDA,
// CUDA_VERSION, NVIDIA_DISABLE_REQUIRE, and each further line as
// NVIDIA_REQUIRE_<n>.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine_harness.hpp"

namespace {

const char* const kEnvNames[] = {"NVIDIA_REQUIRE_CUDA", "CUDA_VERSION", "NVIDIA_DISABLE_REQUIRE"};
constexpr std::size_t kEnvCount = sizeof kEnvNames / sizeof kEnvNames[0];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace graft::fuzz;
  EngineInput input = split_engine_input(data, size);
  graft::Request request = engine_request(input);
  request.env["NVIDIA_VISIBLE_DEVICES"] = "all";
  for (std::size_t i = 0; i < input.values.size(); ++i) {
    std::string name = i < kEnvCount ? kEnvNames[i] : "NVIDIA_REQUIRE_" + std::to_string(i);
    request.env[name] = input.values[i];
  }
  evaluate_on_fake_host(request, input.trust_unprivileged);
  return 0;
}
