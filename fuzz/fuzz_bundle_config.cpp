// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a bundle's config.json as the hook reads it
// (parse_bundle_config in core/src/request/request_from_bundle.cpp), for a
// bundle directory that does not exist, so root paths resolve nowhere real.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "request/request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string bundle = "/nonexistent/graft-fuzz/bundle";
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto request = graft::parse_bundle_config(text, bundle);
  if (!request) {
    if (request.error().message.empty()) std::abort();
    return 0;
  }
  // An accepted config always names a rootfs, as an absolute path.
  if (!request->rootfs.starts_with('/') || request->layout.known) std::abort();
  return 0;
}
