// SPDX-License-Identifier: Apache-2.0
// Lua bytecode of the rule files and modules graft ships, compiled when graft
// was built (core/tools/precompile_rules.cpp), so that a file whose text is
// exactly a shipped one loads without running Lua's parser: the parser was
// a quarter of a `graft plan` (docs/performance.md).
//
// Only text known at build time is ever matched, byte for byte, and its
// bytecode comes from graft's own binary, so the chunk is the one compiling
// that text gives: the same code, constants and line information. A rule
// file on disk is still read and still only loaded as text (mode "t"); its
// content just selects which build-time compile to reuse.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include <lua.hpp>

namespace graft::rules {

// A dump split around its main function's source name, which Lua stores
// right after the dump's header and which must be the file's own chunk name
// ("@" + path) for messages and debug info to name it: Lua's API cannot
// rename a loaded chunk, so the name is put back in when loading.
struct PrecompiledChunk {
  std::string_view text;  // the text it was compiled from
  std::string_view head;  // the dump up to the source name
  std::string_view body;  // the dump after it
};

struct PrecompiledChunks {
  // lua_ident of the Lua that compiled them: a graft built against the
  // shared library may run with another release of it, and then compiles.
  std::string_view lua_ident;
  std::span<const PrecompiledChunk> chunks;
};

// Defined by the generated file (core/tools/precompile_rules.cpp); empty when
// the build could not run the compiler (cross builds).
extern const PrecompiledChunks kPrecompiledChunks;

// The chunk compiled from exactly `text` by the Lua now linked, or null.
const PrecompiledChunk* find_precompiled(std::string_view text,
                                         const PrecompiledChunks& known = kPrecompiledChunks);

// Loads `chunk` as if its text had been compiled under `chunkname`, pushing
// the function (or an error message); returns lua_load's status.
int load_precompiled(lua_State* L, const PrecompiledChunk& chunk, const char* chunkname);

// How a dump writes a string's size (ldump.c, dumpSize): seven bits a byte,
// most significant first, the last byte marked by its high bit. The
// generator checks this against the dumps it makes.
inline std::string dump_size(std::size_t size) {
  std::string bytes;
  do {
    bytes.insert(bytes.begin(), static_cast<char>(size & 0x7f));
    size >>= 7;
  } while (size != 0);
  bytes.back() = static_cast<char>(bytes.back() | 0x80);
  return bytes;
}

}  // namespace graft::rules
