// SPDX-License-Identifier: Apache-2.0
// Size classes, slabs and the C allocator's share for block_pool.hpp.
#include "sandbox/block_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace graft::rules {

BlockPool::~BlockPool() {
  for (void* slab : slabs_) std::free(slab);
}

void* BlockPool::cut(std::size_t size_class) {
  const std::size_t bytes = (size_class + 1) * kGrain;
  if (static_cast<std::size_t>(end_ - next_) < bytes) {
    // The newest slab's rest, smaller than this class, is left unused.
    void* slab = std::malloc(kSlabSize);
    if (slab == nullptr) return nullptr;
    slabs_.push_back(slab);
    next_ = static_cast<char*>(slab);
    end_ = next_ + kSlabSize;
  }
  void* block = next_;
  next_ += bytes;
  return block;
}

void* BlockPool::allocate(std::size_t size) {
  if (!pooled(size)) return std::malloc(size);
  const std::size_t size_class = class_of(size);
  if (FreeBlock* block = free_[size_class]) {
    free_[size_class] = block->next;
    return block;
  }
  return cut(size_class);
}

void BlockPool::release(void* block, std::size_t size) {
  if (block == nullptr) return;
  if (!pooled(size)) {
    std::free(block);
    return;
  }
  const std::size_t size_class = class_of(size);
  free_[size_class] = new (block) FreeBlock{free_[size_class]};
}

void* BlockPool::resize(void* block, std::size_t old_size, std::size_t new_size) {
  if (block == nullptr) return allocate(new_size);
  if (!pooled(old_size) && !pooled(new_size)) return std::realloc(block, new_size);
  if (pooled(old_size) && pooled(new_size) && class_of(old_size) == class_of(new_size)) return block;
  void* moved = allocate(new_size);
  if (moved == nullptr) {
    if (new_size > old_size) return nullptr;
    // Shrinking may not fail: the block stays as it is. Freed later under
    // its smaller size, it joins that size's class with room to spare (a C
    // block among them is then never given back: only when memory ran out).
    return block;
  }
  std::memcpy(moved, block, std::min(old_size, new_size));
  release(block, old_size);
  return moved;
}

}  // namespace graft::rules
