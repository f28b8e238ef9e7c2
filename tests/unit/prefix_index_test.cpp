// SPDX-License-Identifier: Apache-2.0
// PrefixIndex (inventory/prefix_index.hpp): which library name prefixes a
// cache key starts with. Pure; checked against comparing with every prefix.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "inventory/prefix_index.hpp"

using graft::PrefixIndex;

namespace {

std::vector<std::size_t> found_by_index(const PrefixIndex& index, const std::string& name) {
  std::vector<std::size_t> found;
  index.each_prefix_of(name, [&](std::size_t i) { found.push_back(i); });
  return found;
}

std::vector<std::size_t> found_by_each(const std::vector<std::string>& prefixes, const std::string& name) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < prefixes.size(); ++i)
    if (name.starts_with(prefixes[i])) found.push_back(i);
  return found;
}

}  // namespace

TEST_CASE("A prefix index finds exactly the prefixes a name starts with, in their order", "[inventory]") {
  // Nested prefixes, prefixes sharing a long head, a short one, and names of
  // every kind around them.
  std::vector<std::string> prefixes = {"libnvidia-ml.so", "libcuda.so", "libnvidia-ml.so.1",
                                       "libnvidia-glcore.so", "libnvidia-gl", "libGLX_nvidia.so",
                                       "libcudadebugger.so", "libEGL_nvidia.so", "libnvidia-ml"};
  PrefixIndex index(prefixes);
  std::vector<std::string> names = {
      "libnvidia-ml.so.1", "libnvidia-ml.so", "libnvidia-ml", "libnvidia-m", "libnvidia-glcore.so.560",
      "libnvidia-glsi.so.560", "libcuda.so.1", "libcuda.so", "libcudadebugger.so.1", "libcud",
      "libGLX_nvidia.so.0", "libGLX_mesa.so.0", "libEGL_nvidia.so.0", "libc.so.6", "", "libnvidia-",
      "libnvidia-ml.so.1.2.3", "zlib.so", "libcuda.so\xff", "libnvidia-gl\x01"};
  for (const auto& name : names) {
    INFO(name);
    CHECK(found_by_index(index, name) == found_by_each(prefixes, name));
    CHECK(index.matches(name) == !found_by_each(prefixes, name).empty());
  }
}

TEST_CASE("A prefix index of no prefixes matches nothing, and an empty prefix matches everything",
          "[inventory]") {
  PrefixIndex none({});
  CHECK_FALSE(none.matches("libcuda.so.1"));
  PrefixIndex empty({"", "libcuda.so"});
  CHECK(found_by_index(empty, "libcuda.so.1") == std::vector<std::size_t>{0, 1});
  CHECK(found_by_index(empty, "x") == std::vector<std::size_t>{0});
}
