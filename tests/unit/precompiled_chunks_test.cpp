// SPDX-License-Identifier: Apache-2.0
// Shipped rule text loads from the bytecode compiled at build time
// (core/src/sandbox/precompiled_chunks.hpp): only for exactly that text, only
// with the Lua that compiled it, and as the very chunk the text compiles to,
// named for the file it was read from.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "sandbox/precompiled_chunks.hpp"
#include "skip.hpp"

using graft::rules::dump_size;
using graft::rules::find_precompiled;
using graft::rules::kPrecompiledChunks;
using graft::rules::load_precompiled;
using graft::rules::PrecompiledChunk;
using graft::rules::PrecompiledChunks;

namespace {

std::vector<std::string> shipped_lua_files() {
  std::vector<std::string> files;
  for (const char* dir : {"/policies/nvidia", "/policies/examples"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(GRAFT_SOURCE_DIR) + dir))
      if (entry.path().extension() == ".lua") files.push_back(entry.path());
  return files;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

using State = std::unique_ptr<lua_State, decltype(&lua_close)>;
State new_state() { return State(luaL_newstate(), lua_close); }

// The function on top of the stack, dumped with its debug information.
std::string dump_top(lua_State* L) {
  std::string out;
  lua_dump(
      L,
      [](lua_State*, const void* bytes, std::size_t size, void* data) {
        static_cast<std::string*>(data)->append(static_cast<const char*>(bytes), size);
        return 0;
      },
      &out, 0);
  return out;
}

std::string compiled_from_text(const std::string& text, const std::string& chunkname) {
  auto state = new_state();
  REQUIRE(luaL_loadbufferx(state.get(), text.data(), text.size(), chunkname.c_str(), "t") == LUA_OK);
  return dump_top(state.get());
}

std::string loaded_from_bytecode(const PrecompiledChunk& chunk, const std::string& chunkname) {
  auto state = new_state();
  REQUIRE(load_precompiled(state.get(), chunk, chunkname.c_str()) == LUA_OK);
  return dump_top(state.get());
}

void skip_without_bytecode() {
  if (kPrecompiledChunks.chunks.empty()) GRAFT_SKIP("this build has no bytecode (a cross build)");
}

}  // namespace

TEST_CASE("every shipped rule file and module has bytecode compiled from its exact text", "[precompiled]") {
  skip_without_bytecode();
  auto files = shipped_lua_files();
  REQUIRE(files.size() >= 6);
  for (const auto& path : files) {
    INFO(path);
    CHECK(find_precompiled(file_text(path)) != nullptr);
  }
}

TEST_CASE("a chunk loaded from its bytecode is the chunk its text compiles to, named for its file",
          "[precompiled]") {
  skip_without_bytecode();
  // A long name takes a size of two bytes in the dump.
  const std::string short_name = "@/etc/graft/rules/site.lua";
  const std::string long_name = "@/" + std::string(300, 'd') + "/rule.lua";
  for (const auto& name : {short_name, long_name}) {
    for (const auto& chunk : kPrecompiledChunks.chunks) {
      INFO(name.size() << " " << chunk.text.substr(0, 60));
      CHECK(loaded_from_bytecode(chunk, name) == compiled_from_text(std::string(chunk.text), name));
    }
  }
}

TEST_CASE("text that differs from shipped text by one byte finds no bytecode", "[precompiled]") {
  skip_without_bytecode();
  std::string text(kPrecompiledChunks.chunks.front().text);
  CHECK(find_precompiled(text) != nullptr);
  CHECK(find_precompiled(text + "\n") == nullptr);
  text[text.size() / 2] ^= 1;
  CHECK(find_precompiled(text) == nullptr);
}

TEST_CASE("bytecode compiled by another release of Lua is never used", "[precompiled]") {
  const PrecompiledChunk chunk{"return 1\n", "", ""};
  CHECK(find_precompiled("return 1\n", PrecompiledChunks{lua_ident, std::span(&chunk, 1)}) == &chunk);
  CHECK(find_precompiled("return 1\n", PrecompiledChunks{"$LuaVersion: Lua 5.4.0 $", std::span(&chunk, 1)}) ==
        nullptr);
}

TEST_CASE("a dumped size is seven bits a byte, most significant first, the last byte marked",
          "[precompiled]") {
  CHECK(dump_size(0) == "\x80");
  CHECK(dump_size(3) == "\x83");
  CHECK(dump_size(127) == "\xff");
  CHECK(dump_size(128) == std::string("\x01\x80"));
  CHECK(dump_size(200) == std::string("\x01\xc8"));
}
