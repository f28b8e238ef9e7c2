// SPDX-License-Identifier: Apache-2.0
// Finding and loading the bytecode of shipped rule text (precompiled_chunks.hpp).
#include "sandbox/precompiled_chunks.hpp"

#include <array>

namespace graft::rules {

const PrecompiledChunk* find_precompiled(std::string_view text, const PrecompiledChunks& known) {
  if (known.chunks.empty() || known.lua_ident != std::string_view(lua_ident)) return nullptr;
  for (const auto& chunk : known.chunks)
    if (chunk.text == text) return &chunk;
  return nullptr;
}

namespace {

// The dump handed to lua_load piece by piece, without copying it whole.
struct DumpPieces {
  std::array<std::string_view, 4> pieces;
  std::size_t next = 0;
};

const char* read_piece(lua_State*, void* data, std::size_t* size) {
  auto& dump = *static_cast<DumpPieces*>(data);
  // An empty piece would read as the end of the dump.
  while (dump.next < dump.pieces.size() && dump.pieces[dump.next].empty()) ++dump.next;
  if (dump.next == dump.pieces.size()) {
    *size = 0;
    return nullptr;
  }
  std::string_view piece = dump.pieces[dump.next++];
  *size = piece.size();
  return piece.data();
}

}  // namespace

int load_precompiled(lua_State* L, const PrecompiledChunk& chunk, const char* chunkname) {
  std::string_view name(chunkname);
  // A dumped string's size counts a terminating zero that is not written.
  std::string size = dump_size(name.size() + 1);
  DumpPieces dump{{chunk.head, size, name, chunk.body}};
  return lua_load(L, read_piece, &dump, chunkname, "b");
}

}  // namespace graft::rules
