// SPDX-License-Identifier: Apache-2.0
// ld.so.cache parsing copies strings out of a hostile file: whatever the
// file's offsets say, what is copied stays within a small multiple of its
// size. The caches here are built byte by byte, each entry pointing at one
// shared string, the way a crafted file asks for far more than it holds.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>

#include "graft/base/ldcache.hpp"
#include "graft/base/ldcache_write.hpp"

using namespace graft;

namespace ldcache_bounds_test {

constexpr std::size_t kHeader = 48;
constexpr std::size_t kEntry = 24;
constexpr std::uint64_t kHwcapExtension = 1ULL << 62;

void append_u32(std::string& out, std::uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void append_u64(std::string& out, std::uint64_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// A new-format cache of `count` entries whose key and value are both the
// one string `shared`. With `subdir`, every entry also names glibc-hwcaps
// subdirectory 0, which is `subdir` (an extension section after the strings).
std::string sharing_cache(std::size_t count, const std::string& shared, const std::string& subdir = "") {
  const auto strings_at = static_cast<std::uint32_t>(kHeader + kEntry * count);
  const std::string strings = shared + '\0' + subdir + '\0';
  const auto subdir_at = static_cast<std::uint32_t>(strings_at + shared.size() + 1);
  std::uint32_t extension_at = 0;
  if (!subdir.empty()) extension_at = static_cast<std::uint32_t>((strings_at + strings.size() + 3) & ~3u);
  std::string out = "glibc-ld.so.cache1.1";
  append_u32(out, static_cast<std::uint32_t>(count));
  append_u32(out, static_cast<std::uint32_t>(strings.size()));
  out += std::string(1, '\x02') + std::string(3, '\0');  // little-endian flag, padding
  append_u32(out, extension_at);
  out += std::string(12, '\0');
  for (std::size_t i = 0; i < count; ++i) {
    append_u32(out, static_cast<std::uint32_t>(ldcache_flags_for(LdCacheAbi::native)));
    append_u32(out, strings_at);
    append_u32(out, strings_at);
    append_u32(out, 0);
    append_u64(out, subdir.empty() ? 0 : kHwcapExtension);
  }
  out += strings;
  if (subdir.empty()) return out;
  out.resize(extension_at, '\0');
  append_u32(out, 0xeaa42174);  // extension magic
  append_u32(out, 1);           // one section: hwcaps, right after this header
  append_u32(out, 1);
  append_u32(out, 0);
  append_u32(out, extension_at + 8 + 16);
  append_u32(out, 4);
  append_u32(out, subdir_at);
  return out;
}

std::string error_of(const std::string& bytes) {
  auto parsed = parse_ldcache(bytes, "/crafted/etc/ld.so.cache");
  REQUIRE_FALSE(parsed.ok());
  return parsed.error().message;
}

}  // namespace ldcache_bounds_test

using namespace ldcache_bounds_test;

TEST_CASE("A few entries sharing one path-sized string still parse", "[ldcache][ldcache-bounds]") {
  const std::string path = "/usr/lib/x86_64-linux-gnu/" + std::string(200, 'a') + ".so.1";
  auto parsed = parse_ldcache(sharing_cache(3, path), "shared");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 3);
  CHECK(parsed->at(2).value == path);
}

TEST_CASE("A cache string longer than PATH_MAX is refused, naming the entry", "[ldcache][ldcache-bounds]") {
  std::string message = error_of(sharing_cache(1, std::string(5000, 'a')));
  CHECK_THAT(message, Catch::Contains("/crafted/etc/ld.so.cache"));
  CHECK_THAT(message, Catch::Contains("entry 0 key is 5000 bytes long (at most 4096)"));
}

TEST_CASE("Many entries naming one long string are refused before they are copied out",
          "[ldcache][ldcache-bounds]") {
  // 20,000 entries of 24 bytes, each asking for 2 x 4,000 bytes: 160 MB from
  // a file of under 0.5 MB.
  std::string bytes = sharing_cache(20000, std::string(4000, 'a'));
  REQUIRE(bytes.size() < 500000);
  CHECK_THAT(error_of(bytes), Catch::Contains("strings add up to more than 3 times the file's size"));
}

TEST_CASE("Many entries naming one long glibc-hwcaps subdirectory are refused before it is copied out",
          "[ldcache][ldcache-bounds]") {
  std::string bytes = sharing_cache(20000, "l", std::string(250, 'x'));
  CHECK_THAT(error_of(bytes), Catch::Contains("strings add up to more than 3 times the file's size"));
}

TEST_CASE("A glibc-hwcaps subdirectory longer than NAME_MAX is refused", "[ldcache][ldcache-bounds]") {
  std::string message = error_of(sharing_cache(1, "l", std::string(300, 'x')));
  CHECK_THAT(message, Catch::Contains("entry 0 glibc-hwcaps subdirectory is 300 bytes long (at most 255)"));
}

TEST_CASE("A key filter copies only what it keeps, so a cache it mostly drops is not charged for the rest",
          "[ldcache][ldcache-bounds]") {
  auto kept = parse_ldcache(sharing_cache(20000, std::string(4000, 'a')), "filtered",
                            [](std::string_view) { return false; });
  REQUIRE(kept.ok());
  CHECK(kept->empty());
}

TEST_CASE("A glibc-hwcaps section of more than 1024 names is refused", "[ldcache][ldcache-bounds]") {
  std::string bytes = sharing_cache(1, "l", "x86-64-v3");
  // The section's size field is the last but one u32 of the section header,
  // before the one name offset the builder wrote.
  std::uint32_t size = 4 * 1025;
  std::memcpy(bytes.data() + bytes.size() - 8, &size, 4);
  bytes.resize(bytes.size() + 4 * 1024, '\0');
  CHECK_THAT(error_of(bytes), Catch::Contains("glibc-hwcaps section lists 1025 names (at most 1024)"));
}
