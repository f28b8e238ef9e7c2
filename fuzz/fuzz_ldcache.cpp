// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the ld.so.cache parser (base/src/ldcache.cpp) on
// arbitrary bytes, old, new and combined layouts alike, plus the flag helpers
// discovery applies to every entry.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "graft/base/ldcache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string name = "fuzz";
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto entries = graft::parse_ldcache(bytes, name);
  if (!entries) {
    if (entries.error().message.empty()) std::abort();
    return 0;
  }
  std::size_t total = 0;
  for (const auto& entry : *entries) {
    // Every string came out of the input, so none can be longer than it.
    if (entry.key.size() > size || entry.value.size() > size) std::abort();
    total += static_cast<std::size_t>(graft::ldcache_abi(entry.flags)) +
             graft::ldcache_is_elf(entry.flags);
  }
  return total == static_cast<std::size_t>(-1) ? 1 : 0;  // keep the calls
}
