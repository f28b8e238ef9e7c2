// SPDX-License-Identifier: Apache-2.0
// BlockPool: the memory behind the rules' Lua state. Lua allocates and frees
// a few thousand small blocks per evaluation (strings, table parts, closures,
// the parser's buffers), and the C allocator's bookkeeping for each had been
// a twentieth of a `graft plan` and a sixth of what each admin rule file
// adds. Blocks of up to 256 bytes are cut from 32 KiB slabs and kept, when
// freed, on a list per 16-byte size class; larger ones are the C
// allocator's. Slabs go back only with the pool, after lua_close.
// The calls follow lua_Alloc's contract: every free or resize names the
// block's size as last allocated, and a block never shrinks by failing.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace graft::rules {

class BlockPool {
 public:
  static constexpr std::size_t kLargestPooled = 256;

  BlockPool() = default;
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  // nullptr when memory runs out.
  void* allocate(std::size_t size);
  void release(void* block, std::size_t size);
  // The block, moved or not, holding the first min(old_size, new_size)
  // bytes; nullptr (the block untouched) only when growing fails. A null
  // block is a new one, as with realloc.
  void* resize(void* block, std::size_t old_size, std::size_t new_size);

 private:
  static constexpr std::size_t kGrain = 16;
  static constexpr std::size_t kSlabSize = 32 * 1024;
  static bool pooled(std::size_t size) { return size <= kLargestPooled; }
  static std::size_t class_of(std::size_t size) { return size == 0 ? 0 : (size - 1) / kGrain; }

  struct FreeBlock {
    FreeBlock* next;
  };

  void* cut(std::size_t size_class);

  std::array<FreeBlock*, kLargestPooled / kGrain> free_{};
  std::vector<void*> slabs_;
  char* next_ = nullptr;  // the unused rest of the newest slab
  char* end_ = nullptr;
};

}  // namespace graft::rules
