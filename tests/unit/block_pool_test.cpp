// SPDX-License-Identifier: Apache-2.0
// The memory behind the rules' Lua state (core/src/sandbox/block_pool.hpp):
// blocks keep their bytes across resizes, a freed block serves its size
// class again, and no two live blocks overlap. Pure: memory only.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sandbox/block_pool.hpp"

using graft::rules::BlockPool;

namespace {

void fill(void* block, std::size_t size, unsigned char seed) {
  auto* bytes = static_cast<unsigned char*>(block);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(seed + i);
}

bool holds(const void* block, std::size_t size, unsigned char seed) {
  const auto* bytes = static_cast<const unsigned char*>(block);
  for (std::size_t i = 0; i < size; ++i)
    if (bytes[i] != static_cast<unsigned char>(seed + i)) return false;
  return true;
}

}  // namespace

TEST_CASE("A freed small block serves the next request of its size class", "[rules][pool]") {
  BlockPool pool;
  void* first = pool.allocate(40);
  REQUIRE(first != nullptr);
  pool.release(first, 40);
  CHECK(pool.allocate(33) == first);  // 33 to 48 bytes share a class
  void* other = pool.allocate(40);
  CHECK(other != first);
}

TEST_CASE("A small block resized within its class stays where it is", "[rules][pool]") {
  BlockPool pool;
  void* block = pool.allocate(20);
  fill(block, 20, 7);
  CHECK(pool.resize(block, 20, 30) == block);
  CHECK(holds(block, 20, 7));
}

TEST_CASE("A block keeps its bytes when it grows or shrinks across classes and past the pooled sizes",
          "[rules][pool]") {
  BlockPool pool;
  void* block = pool.allocate(24);
  fill(block, 24, 1);
  block = pool.resize(block, 24, 100);
  REQUIRE(block != nullptr);
  CHECK(holds(block, 24, 1));
  fill(block, 100, 2);
  block = pool.resize(block, 100, 5000);  // now the C allocator's
  REQUIRE(block != nullptr);
  CHECK(holds(block, 100, 2));
  fill(block, 5000, 3);
  block = pool.resize(block, 5000, 9000);
  REQUIRE(block != nullptr);
  CHECK(holds(block, 5000, 3));
  block = pool.resize(block, 9000, 64);  // back into a pooled class
  REQUIRE(block != nullptr);
  CHECK(holds(block, 64, 3));
  pool.release(block, 64);
}

TEST_CASE("Thousands of live blocks of mixed sizes never overlap and keep their bytes", "[rules][pool]") {
  BlockPool pool;
  struct Live {
    void* block;
    std::size_t size;
    unsigned char seed;
  };
  std::vector<Live> live;
  std::mt19937 random(42);
  std::uniform_int_distribution<std::size_t> size_of(1, 600);
  for (int step = 0; step < 20000; ++step) {
    const auto choice = random() % 4;
    if (choice < 2 || live.empty()) {
      std::size_t size = size_of(random);
      void* block = pool.allocate(size);
      REQUIRE(block != nullptr);
      auto seed = static_cast<unsigned char>(step);
      fill(block, size, seed);
      live.push_back({block, size, seed});
    } else {
      std::size_t at = random() % live.size();
      Live& chosen = live[at];
      REQUIRE(holds(chosen.block, chosen.size, chosen.seed));
      if (choice == 2) {
        pool.release(chosen.block, chosen.size);
        live[at] = live.back();
        live.pop_back();
      } else {
        std::size_t size = size_of(random);
        void* moved = pool.resize(chosen.block, chosen.size, size);
        REQUIRE(moved != nullptr);
        REQUIRE(holds(moved, std::min(size, chosen.size), chosen.seed));
        fill(moved, size, chosen.seed);
        chosen = {moved, size, chosen.seed};
      }
    }
  }
  for (const Live& entry : live) {
    CHECK(holds(entry.block, entry.size, entry.seed));
    pool.release(entry.block, entry.size);
  }
}
