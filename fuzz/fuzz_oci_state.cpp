// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the OCI state a runtime writes to the hook's stdin
// (core/src/request/oci_state.cpp). Whatever it accepts must satisfy the
// checks the hook relies on: id non-empty, pid > 0, bundle absolute.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "request/oci_state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto state = graft::parse_oci_state(text);
  if (!state) {
    if (state.error().message.empty()) std::abort();
    return 0;
  }
  if (state->id.empty() || state->pid <= 0 || !state->bundle.starts_with('/')) std::abort();
  return 0;
}
